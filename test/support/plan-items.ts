import type { Emit, Need, PlanIR, PlanItem, Route } from '../../runtime/plan/schema.js';

// Plan IR built by hand, for tests that must not depend on the parser (routing, the graph
// views) and for parser tests to compare against. Each item is laid out as the line
// `- [ ] <text>` at line `index`; markers carry a placeholder span. test/graph/factory.ts
// is the other builder: it lays out marker lines and columns exactly as the parser would,
// for tests of diagnostics positions.

const span = { line: 1, column: 1, endLine: 1, endColumn: 2 };

/** A plain open work item with every IR field defaulted; override what the test cares about. */
export function item(index: number, over: Partial<PlanItem> = {}): PlanItem {
  const text = over.text ?? `item ${index}`;
  const line = over.line ?? index;
  return {
    index,
    id: `i${index}`,
    text,
    done: false,
    kind: 'work',
    label: null,
    command: null,
    anchor: null,
    depRefs: [],
    deps: [],
    routes: [],
    emits: [],
    needs: [],
    scenarios: [],
    writes: [],
    line,
    span: { line, column: 1, endLine: line, endColumn: 7 + text.length },
    textSpan: { line, column: 7, endLine: line, endColumn: 7 + text.length },
    kindSpan: null,
    checkOffset: 0,
    ...over,
  };
}

/** `@on <when> -> <target>`: a status test for a bare word, a signal test for key=value / key!=value. */
export function route(when: string, target: number, targetText = String(target)): Route {
  const signal = /^([^=!]+)(!=|==|=)(.*)$/.exec(when);
  if (!signal) return { when, kind: 'status', target, targetText, span };
  return { when, kind: 'signal', key: signal[1]!, op: signal[2] === '!=' ? '!=' : '=', value: signal[3]!, target, targetText, span };
}

/** `@emit key=value`. */
export const emit = (key: string, value = 'true'): Emit => ({ key, value, span });
/** `@needs key`. */
export const need = (key: string): Need => ({ key, span });

/** A Plan IR from items. */
export function plan(items: PlanItem[], file = '.leopold/PLAN.md'): PlanIR {
  return { file, items, strays: [], legacyItemLines: [] };
}
