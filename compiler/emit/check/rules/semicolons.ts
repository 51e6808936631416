import type { HostContractRule } from '../rule.js';
import { violation } from '../violation.js';

/** Every statement ends with an explicit `;`: acorn reports each automatic insertion. */
export const checkSemicolons: HostContractRule = ({ file, insertedSemicolons }) =>
  insertedSemicolons.map((at) =>
    violation(
      'host-contract/missing-semicolon',
      file,
      { line: at.line, column: at.column + 1, endLine: at.line, endColumn: at.column + 1 },
      'found a statement ended by automatic semicolon insertion; expected an explicit `;` here',
    ),
  );
