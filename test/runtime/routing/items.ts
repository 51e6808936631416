import type { PlanItem, Route } from '../../../runtime/plan/schema.js';

const span = { line: 1, column: 1, endLine: 1, endColumn: 2 };

/** A plan item built by hand (tests that must not depend on the parser). */
export function item(index: number, over: Partial<PlanItem> = {}): PlanItem {
  return {
    index,
    id: `i${index}`,
    text: `item ${index}`,
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
    line: index,
    span,
    textSpan: span,
    kindSpan: null,
    checkOffset: 0,
    ...over,
  };
}

/** `@on <when> -> <target>`: a status test for a bare word, a signal test for key=value / key!=value. */
export function on(when: string, target: number): Route {
  const signal = /^([^=!]+)(!=|==|=)(.*)$/.exec(when);
  if (!signal) return { when, kind: 'status', target, targetText: String(target), span };
  return {
    when,
    kind: 'signal',
    key: signal[1]!,
    op: signal[2] === '!=' ? '!=' : '=',
    value: signal[3]!,
    target,
    targetText: String(target),
    span,
  };
}

/** `@emit key=value`. */
export const emit = (key: string, value = 'true') => ({ key, value, span });
/** `@needs key`. */
export const need = (key: string) => ({ key, span });
