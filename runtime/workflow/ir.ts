import type { PlanIR } from '../plan/schema.js';
import type { EmbeddedNode } from './plan.js';

/**
 * The Plan IR view runtime/amend and runtime/routing read, built from the embedded nodes
 * (no spans or anchors: references by index only).
 */
export function irOf(nodes: readonly EmbeddedNode[]): PlanIR {
  return {
    file: 'PLAN.md',
    strays: [],
    legacyItemLines: [],
    items: nodes.map((node) => ({
      index: node.index,
      id: node.id,
      text: node.text,
      done: node.done,
      kind: node.kind,
      label: node.label,
      command: node.command,
      anchor: null,
      depRefs: [],
      deps: [...node.deps],
      routes: node.routes.map((route) => ({ ...route, targetText: String(route.target), span: SPAN })),
      emits: node.emits.map((emit) => ({ ...emit, span: SPAN })),
      needs: node.needs.map((key) => ({ key, span: SPAN })),
      scenarios: [...node.scenarios],
      writes: [...node.writes],
      line: 1,
      span: SPAN,
      textSpan: SPAN,
      kindSpan: null,
      checkOffset: 0,
    })),
  };
}

const SPAN = { line: 1, column: 1, endLine: 1, endColumn: 1 };
