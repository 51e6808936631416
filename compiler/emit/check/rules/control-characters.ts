import type { Diagnostic } from '../../../diagnostics/diagnostic.js';
import type { HostContractCode } from '../codes.js';
import type { HostContractRule } from '../rule.js';
import { spanAt, violation } from '../violation.js';

// Searched in the CRLF-normalised text, so every CR left over is a bare one.
const REFUSED: readonly { code: HostContractCode; pattern: RegExp; found: string }[] = [
  { code: 'host-contract/escape-character', pattern: /\u001b/g, found: 'ESC character (U+001B)' },
  { code: 'host-contract/bare-carriage-return', pattern: /\r/g, found: 'bare CR (U+000D not followed by LF)' },
];

/** No raw ESC and no bare CR anywhere in the file: one violation per kind, at the first one. */
export const checkControlCharacters: HostContractRule = ({ file, text }) => {
  const found: Diagnostic[] = [];
  for (const { code, pattern, found: what } of REFUSED) {
    const offsets = [...text.matchAll(pattern)].map((match) => match.index);
    const first = offsets[0];
    if (first === undefined) continue;
    const more = offsets.length > 1 ? ` (${offsets.length} in the file, this is the first)` : '';
    found.push(violation(code, file, spanAt(text, first, 1), `found a ${what}${more}; expected none`));
  }
  return found;
};
