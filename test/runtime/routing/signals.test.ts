import { describe, expect, it } from 'vitest';
import { blockReason, SIGNALS_MARKER } from '../../../runtime/hooks/stop/reason.js';
import { reportedEvents } from '../../../runtime/hooks/stop/outcome.js';
import { parsePlan } from '../../../runtime/plan/parse/index.js';
import { declaredValues } from '../../../runtime/plan/kind-facts.js';
import { routeDecision } from '../../../runtime/run/index.js';
import { emptyState } from '../../../runtime/state/index.js';
import { agentJsonSchemas } from '../../../runtime/workflow/agent-schemas.js';
import { answeredSignals, signalsInstruction, withSignals } from '../../../runtime/workflow/signals.js';
import { defaultAnswerFor } from '../../../runtime/host/default-answer.js';

// Signals from any node (issue #13): a key declared with several values is a steering
// choice; the agent answers one in `signals` (workflow), the session records a `signals`
// event (Stop hook); both become the same `finished` outcome, and routing sends the value
// when it is a declared one, else the first declared.

const STEER = '- [ ] Move the table\n  @emit migrated=true\n  @emit migrated=false\n  @on migrated=true -> 2\n  @on migrated=false -> 3\n- [ ] Ship\n- [ ] Roll back\n';
const items = (text: string) => parsePlan(text, 'PLAN.md').items;
const takenFrom = (signals?: Record<string, string>) =>
  routeDecision({ items: items(STEER), routing: emptyState().routing, finished: { index: 1, status: 'ok', ...(signals ? { signals } : {}) } });

describe('routing a steering choice', () => {
  it('declaredValues lists each key once with its values in declaration order', () => {
    expect([...declaredValues(items(STEER)[0]!)]).toEqual([['migrated', ['true', 'false']]]);
  });

  it('sends the first declared value when nothing is reported, and takes exactly that branch', () => {
    const step = takenFrom();
    expect(step.routing.signals['1']).toEqual({ migrated: 'true' });
    expect(step.taken.map((t) => t.to)).toEqual([2]);
  });

  it('sends the reported value when it is a declared one', () => {
    expect(takenFrom({ migrated: 'false' }).taken.map((t) => t.to)).toEqual([3]);
  });

  it('a value the key does not declare is no choice: the first declared value is sent', () => {
    const step = takenFrom({ migrated: 'maybe' });
    expect(step.routing.channel).toEqual({ migrated: 'true' });
    expect(step.taken.map((t) => t.to)).toEqual([2]);
  });

  it('a failed node sends no @emit value, so neither branch is taken', () => {
    const step = routeDecision({ items: items(STEER), routing: emptyState().routing, finished: { index: 1, status: 'fail', signals: { migrated: 'false' } } });
    expect(step.taken).toEqual([]);
    expect(step.complete).toMatchObject({ reason: 'routed_complete', routedAround: [2, 3] });
  });
});

describe('the workflow: signals in the structured answer', () => {
  const schemas = agentJsonSchemas();
  const node = { emits: [{ key: 'migrated', value: 'true' }, { key: 'migrated', value: 'false' }, { key: 'format', value: 'json' }] };

  it('every answer a node kind gives has an optional signals object', () => {
    for (const name of ['handoff', 'judgement', 'tool', 'feedback', 'decision'] as const) {
      const schema = schemas[name] as { properties: Record<string, unknown>; required?: string[] };
      expect(schema.properties.signals, name).toMatchObject({ type: 'object' });
      expect(schema.required ?? [], name).not.toContain('signals');
    }
  });

  it('narrows signals per call to the node own keys: an enum of the declared values, the first as default, required', () => {
    const schema = withSignals(schemas.judgement, node) as { properties: { signals: Record<string, unknown> }; required: string[] };
    expect(schema.required).toContain('signals');
    expect(schema.properties.signals).toMatchObject({
      required: ['migrated', 'format'],
      additionalProperties: false,
      properties: { migrated: { enum: ['true', 'false'], default: 'true' }, format: { enum: ['json'], default: 'json' } },
    });
    // What the stand-in host and the scripted model answer when nothing is scripted.
    expect(defaultAnswerFor(schema)).toMatchObject({ verdict: 'pass', signals: { migrated: 'true', format: 'json' } });
  });

  it('leaves the schema of a node without @emit keys as it is', () => {
    expect(withSignals(schemas.handoff, { emits: [] })).toBe(schemas.handoff);
    expect(signalsInstruction({ emits: [] })).toBeNull();
  });

  it('tells the agent the choice and reads back only string values', () => {
    expect(signalsInstruction(node)).toMatch(/- migrated: one of true \| false \(the plan routes on your choice; default true\)\n- format: json/);
    expect(answeredSignals({ signals: { migrated: 'false', n: 2, bad: { x: 1 } } })).toEqual({ migrated: 'false', n: '2' });
    expect(answeredSignals({})).toBeUndefined();
  });
});

describe('the Stop hook: the session reports a `signals` event', () => {
  const gate = items('- [ ] @gate Judge the risk\n  @emit risk=low\n  @emit risk=high\n  @on risk=high -> 2\n- [ ] Canary first\n')[0]!;
  const reason = () =>
    blockReason({ item: gate, items: [gate], turn: 1, maxIterations: 10, autonomy: 'full', rescue: null, protocol: false, evidence: [], charterRules: () => [] });

  it('the block reason carries the exact record template with the choice to fill', () => {
    const text = reason();
    const at = text.indexOf(SIGNALS_MARKER);
    expect(at).toBeGreaterThan(-1);
    expect(text.slice(at)).toMatch(/risk \(low or high; default low\)/);
    const template = text.slice(at).split('\n').find((line) => line.startsWith('{'))!;
    expect(JSON.parse(template)).toEqual({ events: [{ event: 'signals', item: 1, values: { risk: '<low|high>' } }] });
  });

  it('folds the last signals event into the finished outcome, as the workflow does with the answer', () => {
    const events = [
      { event: 'signals', item: 1, values: { risk: 'low' } },
      { event: 'signals', item: 1, values: { risk: 'high' } },
      { event: 'gate', item: 1, verdict: 'pass' },
    ];
    expect(reportedEvents(gate, events)).toEqual([{ type: 'finished', outcome: { index: 1, status: 'pass', signals: { risk: 'high' } } }]);
    expect(reportedEvents(gate, [{ event: 'gate', item: 1, verdict: 'pass' }])).toEqual([{ type: 'finished', outcome: { index: 1, status: 'pass' } }]);
  });

  it('a @tool keeps its exit beside the values it reported', () => {
    const tool = items('- [ ] @tool npm run bench\n  @emit speed=fast\n  @emit speed=slow\n')[0]!;
    expect(reportedEvents(tool, [{ event: 'signals', item: 1, values: { speed: 'slow', exit: '9' } }, { event: 'tool', item: 1, exit: 0 }])).toEqual([
      { type: 'finished', outcome: { index: 1, status: 'ok', signals: { speed: 'slow', exit: '0' } } },
    ]);
  });
});
