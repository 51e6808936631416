import type { NodeKind, PlanIR, PlanItem, Route } from '../../runtime/plan/schema.js';

// Hand-built Plan IR for view tests, so they do not depend on the parser.

const span = { line: 1, column: 1, endLine: 1, endColumn: 2 };

/** A route: `fail` → status, `key=value` / `key!=value` → signal. */
export function route(when: string, target: number, targetText = String(target)): Route {
  const m = /^([^!=]+)(!=|==?)(.*)$/.exec(when);
  if (!m) return { when, kind: 'status', target, targetText, span };
  return { when, kind: 'signal', key: m[1], op: m[2] === '!=' ? '!=' : '=', value: m[3], target, targetText, span };
}

/** One item with defaults; override what the test cares about. */
export function item(index: number, text: string, extra: Partial<PlanItem> = {}): PlanItem {
  const kind: NodeKind = extra.kind ?? 'work';
  return {
    index,
    id: `i${index}`,
    text,
    done: false,
    kind,
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
    line: index,
    span: { line: index, column: 1, endLine: index, endColumn: 7 + text.length },
    textSpan: { line: index, column: 7, endLine: index, endColumn: 7 + text.length },
    kindSpan: null,
    checkOffset: 0,
    ...extra,
  };
}

/** A plan IR from items. */
export function plan(items: PlanItem[], file = '.leopold/PLAN.md'): PlanIR {
  return { file, items, strays: [], legacyItemLines: [] };
}
