import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parsePlan } from '../../../runtime/plan/parse/index.js';
import { stagesOf } from '../../../runtime/run/index.js';
import { phaseTitle } from '../../../runtime/workflow/phases.js';
import type { EmbeddedPlan } from '../../../runtime/workflow/plan.js';

// The routed plan as it will run (issue #13): stages layer open items by dependencies AND
// routes, so a route-only target reads after its source; the workflow's phases follow them.

const items = (text: string) => parsePlan(text, 'PLAN.md').items;
const stageMap = (text: string) => Object.fromEntries(stagesOf(items(text)).stageOf);

describe('stagesOf', () => {
  it('the example plan: entry i2, and every route target after what routes to it', () => {
    const s = stagesOf(items(readFileSync('fixtures/example/.leopold/PLAN.md', 'utf8')));
    expect(s.entry).toEqual([2]);
    expect(s.stages).toEqual([[2], [3], [4], [5], [6], [7, 8]]);
    expect([...s.routeOnly.keys()].sort()).toEqual([5, 6, 7, 8]);
    expect(s.routeOnly.get(6)).toEqual([
      { from: 4, when: 'exit=0' },
      { from: 5, when: 'ok' },
    ]);
  });

  it('a plan without routes: the stages are its waves', () => {
    const s = stagesOf(items('- [x] One\n- [ ] (after: 1) Two\n- [ ] Three\n- [ ] (after: 3) Four\n'));
    expect(s.stages).toEqual([[2, 3], [4]]);
    expect(s.entry).toEqual([2, 3]);
  });

  it('an item with @needs is no entry; a route into itself orders nothing; a retry loop still places every item', () => {
    expect(stagesOf(items('- [ ] Use it\n  @needs token\n- [ ] Make it\n  @emit token\n')).entry).toEqual([2]);
    expect(stageMap('- [ ] Try it\n  @on fail -> 1\n')).toEqual({ 1: 1 });
    // 2 routes back to 1 on fail, and 1 routes to 2: a cycle of routes; both are placed.
    expect(stageMap('- [ ] Build\n  @on ok -> 2\n- [ ] Check\n  @on fail -> 1\n')).toEqual({ 1: 1, 2: 2 });
  });
});

describe('phaseTitle', () => {
  const plan = (text: string, graph: boolean) => ({ items: items(text), graph, waves: [items(text).map((item) => item.index)] }) as unknown as EmbeddedPlan;

  it('a plain checklist names its wave', () => {
    expect(phaseTitle(plan('- [ ] One\n', false), 1, '')).toBe('Wave 1');
  });

  it('a routed plan names the stage, and never goes back to an earlier one', () => {
    const routed = plan('- [ ] A\n  @on ok -> 3\n- [ ] B\n- [ ] C\n', true);
    expect(phaseTitle(routed, 1, '')).toBe('Stage 1');
    expect(phaseTitle(routed, 3, 'Stage 1')).toBe('Stage 2');
    // B could run in stage 1, but the run dispatches it after C (routed targets first).
    expect(phaseTitle(routed, 2, 'Stage 2')).toBe('Stage 2');
  });
});
