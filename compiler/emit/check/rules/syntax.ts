import type { HostContractRule } from '../rule.js';
import { spanAt, violation } from '../violation.js';

/**
 * The script parses as the host parses it. Acorn refuses `with` itself (modules are strict),
 * so that one parse error gets its own code.
 */
export const checkSyntax: HostContractRule = ({ file, text, syntaxError }) => {
  if (!syntaxError) return [];
  if (syntaxError.message.startsWith("'with' in strict mode")) {
    return [
      violation(
        'host-contract/with',
        file,
        spanAt(text, syntaxError.offset, 4),
        'found a `with` statement; expected none (the body runs in strict mode)',
      ),
    ];
  }
  return [
    violation(
      'host-contract/syntax',
      file,
      spanAt(text, syntaxError.offset, 1),
      `found a syntax error: ${syntaxError.message}; expected a strict ES module (top-level await and return allowed)`,
    ),
  ];
};
