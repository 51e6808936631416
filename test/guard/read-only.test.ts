import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runGuard } from '../../runtime/hooks/guard/index.js';
import { findingsForToolCall } from '../../runtime/hooks/guard/tool.js';
import { READ_ONLY_AGENT } from '../../runtime/verify/agent.js';
import { tempDir } from '../support/temp.js';

// Leopold's read-only agent (the workflow's verifier, reviewers and judges): the guard knows
// it by the hook input's agent_type and refuses it every write of the project a command shows.

const root = tempDir('leopold-readonly-');
const leopoldDir = join(root, '.leopold');
mkdirSync(leopoldDir);
const ctx = (osLayer: boolean) => ({ cwd: root, leopoldDir, home: '/nonexistent-home', osLayer, readFile: () => null });
const locks = (command: string, agentType: string, osLayer = true) =>
  findingsForToolCall({ tool_name: 'Bash', tool_input: { command }, agent_type: agentType }, ctx(osLayer)).map((f) => f.lock);

describe('the read-only agent', () => {
  it.each([
    "sed -i 's/a/b/' src/count.js",
    'echo tampered > src/count.js',
    'npm test | tee test.log',
    'perl -pi -e s/a/b/ src/count.js',
    'rm -rf src',
    'mv src/a.js src/b.js',
    'cp /tmp/x src/count.js',
    'touch src/new.js',
    'git checkout -- src/count.js',
  ])('is refused `%s`, with or without the OS layer; another agent is not', (command) => {
    expect(locks(command, READ_ONLY_AGENT, true)).toContain('readonly');
    expect(locks(command, READ_ONLY_AGENT, false)).toContain('readonly');
    expect(locks(command, 'workflow-subagent', true)).not.toContain('readonly');
  });

  it.each(['npm test', 'npx vitest run', 'node --test', 'cat src/count.js', 'git status', 'git diff', 'npm test > /tmp/out.log 2>&1', 'python3 -m pytest -q'])(
    'runs the checks: `%s`',
    (command) => {
      expect(locks(command, READ_ONLY_AGENT, true)).toEqual([]);
      expect(locks(command, READ_ONLY_AGENT, false)).toEqual([]);
    },
  );

  it('is refused every file tool, whatever the path; the implementer is not', () => {
    for (const tool of ['Write', 'Edit', 'MultiEdit', 'NotebookEdit']) {
      const call = { tool_name: tool, tool_input: { file_path: join(root, 'src', 'count.js') } };
      expect(findingsForToolCall({ ...call, agent_type: READ_ONLY_AGENT }, ctx(true)).map((f) => f.lock)).toEqual(['readonly']);
      expect(findingsForToolCall({ ...call, agent_type: 'workflow-subagent' }, ctx(true))).toEqual([]);
    }
  });

  it('the hook denies with a reason that says why and what to do instead, during a run', () => {
    writeFileSync(join(leopoldDir, 'state.json'), JSON.stringify({ active: true }));
    const input = (agent_type: string) => JSON.stringify({ tool_name: 'Bash', tool_input: { command: 'sed -i s/a/b/ src/count.js' }, cwd: root, agent_type });
    const out = runGuard(input(READ_ONLY_AGENT), { env: {}, processCwd: root });
    const answer = JSON.parse(out) as { hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string } };
    expect(answer.hookSpecificOutput.permissionDecision).toBe('deny');
    expect(answer.hookSpecificOutput.permissionDecisionReason).toMatch(/read-only on the project/);
    expect(answer.hookSpecificOutput.permissionDecisionReason).toMatch(/report what is wrong in your answer/);
    expect(runGuard(input('workflow-subagent'), { env: {}, processCwd: root })).toBe('');
  });
});

describe('a tick without a receipt is the user\'s', () => {
  it.each(['node_modules/.bin/leopold plan tick 3 --unverified', 'npx leopold plan tick 3 --json --unverified'])('`%s` is refused to any agent', (command) => {
    expect(locks(command, 'workflow-subagent')).toContain('self');
    expect(locks(command, READ_ONLY_AGENT)).toContain('self');
  });

  it('a plain tick is not', () => {
    expect(locks('node_modules/.bin/leopold plan tick 3 --json', 'workflow-subagent')).toEqual([]);
  });
});
