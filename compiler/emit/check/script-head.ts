import { sortDiagnostics, type Diagnostic } from '../../diagnostics/diagnostic.js';
import type { HostContractCode } from './codes.js';
import { violation } from './host-violation.js';
import { metaFieldIssues } from './meta-schema.js';

/**
 * The part of an emitted script that changes from plan to plan (compiler/emit/script.ts
 * scriptHead): its first lines, of which the first `comments` are `//` comments and the
 * rest `export const meta = <JSON>;` and `const PLAN = <JSON>;`, plus the meta value.
 */
export interface ScriptHead {
  readonly lines: readonly string[];
  readonly comments: number;
  readonly meta: unknown;
}

// A line comment ends at any of these; the text after it would be code.
const LINE_TERMINATOR = /[\n\r\u2028\u2029]/;
const REFUSED: readonly { code: HostContractCode; pattern: RegExp; found: string }[] = [
  { code: 'host-contract/escape-character', pattern: /\u001b/, found: 'ESC character (U+001B)' },
  { code: 'host-contract/bare-carriage-return', pattern: /\r/, found: 'CR (U+000D)' },
];

/**
 * The host contract (docs/host-contract.md) for what a plan puts into the script, checked
 * without parsing it. Everything else in the script is fixed text (the template and the
 * runtime bundle) that passed the full, parsing check once, with a probe plan full of
 * hostile strings (runtime-bundle.ts: at build time, or on a bundle's first use). What is
 * left to vary is data: JSON.stringify output, which is a pure literal with every control
 * character escaped, and comment lines. So per plan: each comment line stays one line, no
 * raw ESC or CR anywhere in the head, and meta has the fields the host reads. Empty when
 * the head complies.
 */
export function checkScriptHead(head: ScriptHead, file: string): Diagnostic[] {
  const found: Diagnostic[] = [];
  head.lines.forEach((text, index) => {
    const line = index + 1;
    const at = (offset: number) => ({ line, column: offset + 1, endLine: line, endColumn: offset + 2 });
    if (index < head.comments) {
      const end = text.search(LINE_TERMINATOR);
      if (!text.startsWith('//')) found.push(violation('host-contract/syntax', file, at(0), 'found a header line that is not a `//` comment; expected the generated header comment'));
      else if (end !== -1) found.push(violation('host-contract/syntax', file, at(end), 'found a line terminator inside the header comment; expected it on one line (the rest would be code)'));
    }
    for (const { code, pattern, found: what } of REFUSED) {
      const offset = text.search(pattern);
      if (offset !== -1) found.push(violation(code, file, at(offset), `found a ${what}; expected none`));
    }
  });
  const metaLine = head.comments + 1;
  const span = { line: metaLine, column: 1, endLine: metaLine, endColumn: (head.lines[head.comments]?.length ?? 0) + 1 };
  for (const issue of metaFieldIssues(head.meta)) found.push(violation('host-contract/meta-field', file, span, issue.message));
  return sortDiagnostics(found);
}
