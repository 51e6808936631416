import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { base64Utf8 } from '../../runtime/workflow/base64.js';
import { blockingFindings, isTestCommand, reviewersOf } from '../../runtime/workflow/work-item.js';
import { scribeCommands } from '../../runtime/workflow/context.js';
import { agentJsonSchemas } from '../../runtime/workflow/agent-schemas.js';
import { addedWork, amendCommand } from '../../runtime/workflow/amend.js';
import { irOf } from '../../runtime/workflow/ir.js';
import type { EmbeddedNode } from '../../runtime/workflow/plan.js';
import { parseAmendments } from '../../runtime/amend/parse.js';
import { PROJECT_CLI } from '../../runtime/project-cli/index.js';

describe('base64Utf8', () => {
  it('matches Buffer for any string, lone surrogates included', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (s) => base64Utf8(s) === Buffer.from(s, 'utf8').toString('base64')), { numRuns: 300 });
    expect(base64Utf8('')).toBe('');
    expect(base64Utf8('🎉 é')).toBe(Buffer.from('🎉 é').toString('base64'));
  });
});

describe('blocking findings', () => {
  const f = (severity: 'P0' | 'P1' | 'P2', introduced: boolean, type = 'defect') => ({ severity, introduced, type, file: 'a', line: 1, problem: 'p', fix: 'f' });
  it('P0 always, P1 only when introduced, P2 never', () => {
    expect(blockingFindings([f('P0', false), f('P1', true), f('P1', false), f('P2', true)])).toEqual([f('P0', false), f('P1', true)]);
  });
  it.each([
    ['defect', true],
    ['Defect ', true],
    ['scenario', true],
    ['probe', true],
    ['hardening', false],
    ['refactor', false],
    ['docs', false],
    ['test-gap', false],
    ['design', false],
    ['style', false],
  ])('an introduced P1 %j blocks: %s (the rest are follow-ups)', (type, blocks) => {
    expect(blockingFindings([f('P1', true, type)])).toHaveLength(blocks ? 1 : 0);
    expect(blockingFindings([f('P0', false, type)])).toHaveLength(1);
  });
  it('reviewers by risk', () => {
    const item = {
      ...{ id: 'i1', index: 1, text: '', scenarios: [], effort: 'low' as const, writes: [], kind: 'work' as const, label: null, command: null },
      ...{ deps: [], needs: [], emits: [], routes: [], done: false },
    };
    expect(reviewersOf({ ...item, critical: false, sensitive: false })).toEqual(['correctness']);
    expect(reviewersOf({ ...item, critical: true, sensitive: true })).toEqual(['correctness', 'security', 'works']);
  });
});

describe('isTestCommand: a build alone is not a test', () => {
  it.each([
    ['npm test', true],
    ['npx vitest run test/count.test.ts', true],
    ['pytest -q', true],
    ['make test', true],
    ['cargo test', true],
    ['go test ./...', true],
    ['npm run build && npm test', true],
    ['./scripts/check-output.sh', true],
    ['npm run build', false],
    ['npx tsc --noEmit', false],
    ['tsc -p .', false],
    ['npm run lint', false],
    ['eslint src', false],
    ['cargo build --release', false],
    ['go vet ./...', false],
    ['make', false],
  ])('%j is a test: %s', (command, expected) => {
    expect(isTestCommand(command)).toBe(expected);
  });
});

describe('scribe commands', () => {
  it('one record call with the base64 payload, then one tick per item', () => {
    const commands = scribeCommands({ decisions: [], events: [{ event: 'item-done', item: 2 }], ticks: [2, 5] });
    expect(commands).toEqual([
      `${PROJECT_CLI} record --base64 ${Buffer.from('{"events":[{"event":"item-done","item":2}]}').toString('base64')}`,
      `${PROJECT_CLI} plan tick 2 --json`,
      `${PROJECT_CLI} plan tick 5 --json`,
    ]);
  });

  it('an amendment runs after the record and before the ticks', () => {
    const amend = 'leopold plan amend --base64 YQ== --json';
    const commands = scribeCommands({ decisions: [], events: [{ event: 'amendments' }], amends: [{ command: amend }], ticks: [2] });
    expect(commands.slice(1)).toEqual([amend, `${PROJECT_CLI} plan tick 2 --json`]);
  });
});

describe('added work', () => {
  it('takes the next indexes, resolves (after:) against the plan and the batch, and gets the unclassified defaults', () => {
    const plan = irOf([node(1), node(2)]);
    const accepted = parseAmendments('```leopold-amend\nADD (after: 2, 1 2) Add tests\nADD (after: 3) Write docs\n```');
    expect(amendCommand(accepted)).toBe(`${PROJECT_CLI} plan amend --base64 ${Buffer.from('```leopold-amend\nADD (after: 2, 1 2) Add tests\nADD (after: 3) Write docs\n```\n').toString('base64')} --json`);
    expect(addedWork(plan, accepted).map(({ index, id, text, deps, effort, critical, sensitive, kind, done }) => ({ index, id, text, deps, effort, critical, sensitive, kind, done }))).toEqual([
      { index: 3, id: 'i3', text: 'Add tests', deps: [2, 1], effort: 'medium', critical: false, sensitive: false, kind: 'work', done: false },
      { index: 4, id: 'i4', text: 'Write docs', deps: [3], effort: 'medium', critical: false, sensitive: false, kind: 'work', done: false },
    ]);
  });
});

function node(index: number): EmbeddedNode {
  return { id: `i${index}`, index, text: `item ${index}`, scenarios: [], effort: 'low', critical: false, sensitive: false, writes: [], kind: 'work', label: null, command: null, deps: [], needs: [], emits: [], routes: [], done: index === 1 };
}

describe('agent schemas', () => {
  it('are generated from zod, draft-07 shaped, and embedded in the bundle as built', () => {
    const schemas = agentJsonSchemas();
    expect(Object.keys(schemas)).toEqual(['decision', 'feedback', 'handoff', 'judgement', 'persona', 'rescue', 'review', 'scribeAck', 'tool', 'verification']);
    for (const schema of Object.values(schemas)) {
      expect(schema).toMatchObject({ type: 'object' });
      expect(schema).not.toHaveProperty('$schema');
    }
    expect((schemas.review.properties as Record<string, { items: { properties: Record<string, unknown> } }>).findings!.items.properties).toHaveProperty('introduced');
  });
});
