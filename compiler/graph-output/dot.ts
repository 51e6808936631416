import type { PlanAnalysis } from './analysis.js';
import { danglingLabel, isDangling, nodeLabel, routeLabel, type ByKind } from './label.js';

/** Graphviz shapes per kind. */
const SHAPES: ByKind<string> = {
  work: 'box',
  gate: 'diamond',
  verify: 'hexagon',
  tool: 'component',
  human: 'oval',
  feedback: 'parallelogram',
};

/**
 * A Graphviz double-quoted string. Inside one only `"` and `\` are special (a backslash also
 * starts label escapes such as `\n` and `\N`, so it is doubled); line breaks cannot appear.
 */
export function dotString(text: string): string {
  const body = text.replace(/[\r\n\u0085\u2028\u2029]+/g, ' ').replace(/[\\"]/g, (ch) => `\\${ch}`);
  return `"${body}"`;
}

/**
 * The plan as a Graphviz digraph: one shape per kind, done items filled grey-green, `after`
 * edges solid, routes dashed and labelled with their condition, dangling route targets as
 * red dashed placeholder nodes.
 */
export function dot(analysis: PlanAnalysis): string {
  const { items } = analysis.ir;
  const indexes = new Set(items.map((item) => item.index));
  const lines = [
    `digraph ${dotString(analysis.ir.file)} {`,
    '  rankdir=TB;',
    '  node [fontname="Helvetica", fontsize=11];',
    '  edge [fontname="Helvetica", fontsize=10];',
  ];
  const placeholders: string[] = [];
  const edges: string[] = [];
  for (const item of items) {
    const attrs = [`label=${dotString(nodeLabel(item))}`, `shape=${SHAPES[item.kind]}`];
    if (item.done) attrs.push('style=filled', 'fillcolor="#e6f4ea"', 'color="#2e7d32"');
    lines.push(`  ${item.id} [${attrs.join(', ')}];`);
  }
  for (const item of items) {
    for (const dep of item.deps) if (indexes.has(dep)) edges.push(`  i${dep} -> ${item.id};`);
    item.routes.forEach((route, n) => {
      const label = dotString(routeLabel(route));
      if (isDangling(route, indexes)) {
        const id = `${item.id}_missing_${n + 1}`;
        placeholders.push(
          `  ${id} [label=${dotString(danglingLabel(route))}, shape=box, style=dashed, color="#c62828", fontcolor="#c62828"];`,
        );
        edges.push(`  ${item.id} -> ${id} [style=dashed, label=${label}, color="#c62828"];`);
        return;
      }
      edges.push(`  ${item.id} -> i${route.target} [style=dashed, label=${label}];`);
    });
  }
  lines.push(...placeholders, ...edges, '}');
  return `${lines.join('\n')}\n`;
}
