/**
 * Leopold's read-only agent: the custom agent definition its verifiers, `@gate`/`@verify`
 * judges and reviewers run as in the workflow engine (`agent(…, { agentType })`). Measured on
 * Claude Code 2.1.332 (docs/host.md): a workflow agent given `agentType` is offered only the
 * definition's `tools` (Write and Edit answer "No such tool available"), and its hooks' input
 * carries `agent_type` = the definition's name, which is how the guard knows it is read-only.
 * A missing definition makes agent() throw ("agent type … not found"): the verifier then
 * counts as failed, never as passed.
 */
export const READ_ONLY_AGENT = 'leopold-readonly';

/** Where `leopold compile` writes the definition, relative to the project. */
export const READ_ONLY_AGENT_PATH = `.claude/agents/${READ_ONLY_AGENT}.md`;

/** The definition: no file-editing tool; Bash stays, to run the tests (the guard refuses the edits it can see there). */
export const READ_ONLY_AGENT_DEFINITION = `---
name: ${READ_ONLY_AGENT}
description: Leopold's read-only checker (verifier, gate and verify judge, reviewer). Written by leopold compile; do not edit.
tools: Read, Grep, Glob, Bash
---
You check work; you never change it. Read the code and run the commands the task names (tests,
type checks, linters), then answer exactly as the task asks. Never edit, create, move or delete a
file in the project, never change git state, never install anything: report what is wrong and the
implementer fixes it. Scratch output goes to the system temp directory.
`;
