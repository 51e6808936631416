import { describe, expect, it } from 'vitest';
import { WORKFLOW_TOOLS, projectFixtures, runReal } from './harness.js';

// Done means verified, in the real client: the workflow's verifier runs as Leopold's read-only
// agent (the definition `leopold compile` writes to .claude/agents/), so its file tools are
// gone and the guard refuses the edits its commands show, even in bypassPermissions, where
// the client itself would run them; the implementer still writes. The accepted item is
// ticked only after its receipt.

const fixtures = projectFixtures();

const PLAN = '# Plan\n\n- [ ] Write the greeting module\n';
const SOURCE = 'export const greet = () => "hi";\n';
const HANDOFF = { status: 'completed', files_changed: ['greet.js'], tests_run: [{ command: 'npm test', result: 'pass', summary: 'ok' }], evidence: 'done', blocked_reason: '', concerns: [] };
const PASS = { verdict: 'pass', tests_run: [{ command: 'npm test', result: 'pass', summary: '1 passing' }], evidence: 'green' };

describe('read-only verification in the real client', () => {
  it('a verifier that tries to edit a file is refused (bypassPermissions); the implementer writes; the tick follows the receipt', async () => {
    const p = fixtures.project({ plan: PLAN, files: { 'greet.js': 'export const greet = () => "hello";\n' } });
    expect(p.leopold(['compile']).code).toBe(0);
    expect(p.read('.claude/agents/leopold-readonly.md')).toMatch(/^---\nname: leopold-readonly\n[\s\S]*\ntools: Read, Grep, Glob, Bash\n---\n/);
    expect(p.leopold(['run', 'start', '--engine', 'workflow']).code).toBe(0);
    const file = `${p.dir}/greet.js`;
    const script = {
      main: [{ tool: 'Workflow', input: { scriptPath: '.claude/workflows/leopold-run.js' } }, { text: 'launched' }],
      agents: [
        { label: 'i1:implement', answers: [{ tools: [{ tool: 'Write', input: { file_path: file, content: SOURCE } }], value: HANDOFF }] },
        {
          label: 'i1:verify',
          answers: [
            {
              tools: [
                { tool: 'Write', input: { file_path: file, content: 'tampered\n' } },
                { tool: 'Edit', input: { file_path: file, old_string: 'hi', new_string: 'tampered' } },
                { tool: 'Bash', input: { command: "sed -i 's/hi/tampered/' greet.js" } },
                { tool: 'Bash', input: { command: 'echo tampered > greet.js' } },
                { tool: 'Bash', input: { command: 'cat greet.js' } },
              ],
              value: PASS,
            },
          ],
        },
      ],
    };
    const run = await runReal(p, { prompt: 'Run the Leopold workflow.', mode: 'bypassPermissions', allowedTools: WORKFLOW_TOOLS, script });
    expect((run.results[0] as { stop: string }).stop).toBe('plan_complete');
    // The implementer's write landed; none of the verifier's did.
    expect(p.read('greet.js')).toBe(SOURCE);
    const seen = (run.agentToolResults.get('i1:verify') ?? []).map((r) => r.text);
    expect(seen).toHaveLength(5);
    expect(seen[0]).toMatch(/No such tool available: Write/);
    expect(seen[1]).toMatch(/No such tool available: Edit/);
    expect(seen[2]).toMatch(/read-only on the project/);
    expect(seen[3]).toMatch(/read-only on the project/);
    expect(seen[4]).toBe(SOURCE.trim());
    // The receipt, stamped with the tree's fingerprint, precedes the tick.
    const events = p.read('.leopold/events.jsonl').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const receipt = events.findIndex((e) => e.event === 'verified');
    expect(events[receipt]).toMatchObject({ item: 1, commands: ['npm test'], fingerprint: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) });
    expect(receipt).toBeLessThan(events.findIndex((e) => e.event === 'item-done'));
    expect(p.read('.leopold/PLAN.md')).toContain('- [x] Write the greeting module');
  });
});
