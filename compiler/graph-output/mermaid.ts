import type { PlanAnalysis } from './analysis.js';
import { danglingLabel, isDangling, nodeLabel, routeLabel, type ByKind } from './label.js';

/** Mermaid flowchart shapes per kind: open and close around a quoted label. */
const SHAPES: ByKind<readonly [string, string]> = {
  work: ['[', ']'],
  gate: ['{', '}'],
  verify: ['{{', '}}'],
  tool: ['[[', ']]'],
  human: ['([', '])'],
  feedback: ['[/', '/]'],
};

/**
 * Escapes text for a quoted Mermaid label. Mermaid decodes `#name;` / `#123;` entity codes
 * inside labels, so every character that means something to its grammar (quotes, brackets,
 * pipes, `#`, `;`, `%`, backticks, `<>&`) becomes a numeric entity; letters, digits, spaces
 * and other Unicode pass through. Format characters (bidi overrides, zero-width) are encoded
 * too so the diagram source shows them.
 */
export function escapeMermaid(text: string): string {
  return [...text]
    .map((ch) => {
      if (/^[A-Za-z0-9 .,:!?'_/+*@$~^=-]$/.test(ch)) return ch;
      const code = ch.codePointAt(0) ?? 0;
      if (/^[\p{Cc}\p{Zl}\p{Zp}]$/u.test(ch)) return ' ';
      if (code < 0x80 || /^[\p{Cf}\p{Co}\p{Cn}\p{Cs}]$/u.test(ch)) return `#${code};`;
      return ch;
    })
    .join('');
}

/**
 * The plan as a Mermaid flowchart: one shape per kind, done items in class `done`, `after`
 * edges solid, routes dashed and labelled with their condition, and a dangling route target
 * drawn as a red dashed placeholder node.
 */
export function mermaid(analysis: PlanAnalysis): string {
  const { items } = analysis.ir;
  const indexes = new Set(items.map((item) => item.index));
  const lines = ['flowchart TD'];
  const placeholders: string[] = [];
  const edges: string[] = [];
  for (const item of items) {
    const [open, close] = SHAPES[item.kind];
    lines.push(`  ${item.id}${open}"${escapeMermaid(nodeLabel(item))}"${close}`);
  }
  for (const item of items) {
    for (const dep of item.deps) if (indexes.has(dep)) edges.push(`  i${dep} --> ${item.id}`);
    item.routes.forEach((route, n) => {
      const label = `|"${escapeMermaid(routeLabel(route))}"|`;
      if (isDangling(route, indexes)) {
        const id = `${item.id}_missing_${n + 1}`;
        placeholders.push(`  ${id}>"${escapeMermaid(danglingLabel(route))}"]`);
        edges.push(`  ${item.id} -.->${label} ${id}`);
        return;
      }
      edges.push(`  ${item.id} -.->${label} i${route.target}`);
    });
  }
  // Mermaid rejects a flowchart with no statements; an empty plan still draws something.
  if (items.length === 0) lines.push('  empty["(no items)"]');
  lines.push(...placeholders, ...edges);
  lines.push('  classDef done fill:#e6f4ea,stroke:#2e7d32,color:#555');
  lines.push('  classDef missing fill:#fdecea,stroke:#c62828,stroke-dasharray:4 3,color:#c62828');
  const done = items.filter((item) => item.done).map((item) => item.id);
  if (done.length > 0) lines.push(`  class ${done.join(',')} done`);
  const missing = placeholders.map((line) => line.trim().split('>')[0] ?? '');
  if (missing.length > 0) lines.push(`  class ${missing.join(',')} missing`);
  return `${lines.join('\n')}\n`;
}
