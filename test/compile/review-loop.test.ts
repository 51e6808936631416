import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzePlan, compile } from '../../compiler/index.js';
import { parseAnswerScript, runWorkflowScript } from '../../runtime/host/index.js';
import type { WorkflowResult } from '../../runtime/workflow/index.js';
import { briefOptions, builtLeopold, root } from './harness.js';

// The bounded review–rework loop docs/plan-language.md teaches ("Loops: review and
// rework"), fixtures/compile/review-loop: it compiles, and its run ends whichever way the
// reviews go, each item dispatched at most once. The same loop written as a literal cycle
// is refused.

const CASE = join(root, 'fixtures', 'compile', 'review-loop');
let script = '';

beforeAll(async () => {
  const { text, options } = briefOptions(join(CASE, '.leopold'), (await builtLeopold()).bundle);
  const result = compile(text, { ...options, autonomyFlag: 'full' });
  expect(result.diagnostics).toEqual([]);
  if (!result.ok) throw new Error('the review loop does not compile');
  script = result.script;
});

async function run(answers: unknown = []) {
  const hosted = await runWorkflowScript(script, { file: '.claude/workflows/leopold-run.js', answers: parseAnswerScript(answers) });
  expect(hosted.ok, JSON.stringify(hosted.error)).toBe(true);
  // Each dispatch starts with one of these agents: the items that ran, in order.
  const dispatched = hosted.journal.flatMap((call) => {
    const first = /^i(\d+):(implement|gate|human)$/.exec(call.label ?? '');
    return first ? [Number(first[1])] : [];
  });
  return { result: hosted.result as WorkflowResult, dispatched };
}

describe('the bounded review–rework loop', () => {
  it('a first review that passes: the release runs, the rework round is routed around', async () => {
    const { result, dispatched } = await run();
    expect(result).toMatchObject({ stop: 'routed_complete', done: 3, total: 6, routedAround: [3, 4, 5] });
    expect(dispatched).toEqual([1, 2, 6]);
  });

  it('both reviews fail: one rework, a second review, a person decides, the release runs; every item at most once', async () => {
    const answers = JSON.parse(readFileSync(join(CASE, 'answers.json'), 'utf8')) as unknown;
    const { result, dispatched } = await run(answers);
    expect(result).toMatchObject({ stop: 'routed_complete', done: 4, total: 6, incomplete: [2, 4], routedAround: [] });
    expect(dispatched).toEqual([1, 2, 3, 4, 5, 6]);
    expect(result.decidedForYou).toContain('Release now and list quoted newlines under known issues.');
  });

  it('written as a literal cycle (the review routing back to the work) it is refused', () => {
    const cycle = '- [ ] Write the CSV importer {#build}\n- [ ] (after: #build) @gate Review the importer {#review}\n  @on fail -> #build\n';
    expect(analyzePlan(cycle, 'PLAN.md').diagnostics.map((d) => d.code)).toEqual(['cycle']);
  });
});
