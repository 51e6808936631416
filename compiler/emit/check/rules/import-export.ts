import type { Diagnostic } from '../../../diagnostics/diagnostic.js';
import type { HostContractRule } from '../rule.js';
import { excerpt, spanOfNode, violation } from '../violation.js';
import { isMetaStatement } from './meta.js';

/**
 * No `import` declaration anywhere and no `export` but the first-statement meta. Both can
 * only appear at the top level of a module, so the top-level statements are all there is
 * to look at.
 */
export const checkImportExport: HostContractRule = ({ file, text, program }) => {
  if (!program) return [];
  const found: Diagnostic[] = [];
  program.body.forEach((statement, position) => {
    if (statement.type === 'ImportDeclaration') {
      found.push(
        violation('host-contract/import', file, spanOfNode(statement), `found \`${excerpt(text, statement)}\`; expected no import (bundle dependencies into the script)`),
      );
    }
    const isExport =
      statement.type === 'ExportNamedDeclaration' ||
      statement.type === 'ExportDefaultDeclaration' ||
      statement.type === 'ExportAllDeclaration';
    // The first statement's meta export is judged by the meta rule, however it is written.
    if (isExport && !(position === 0 && isMetaStatement(statement))) {
      found.push(
        violation('host-contract/export', file, spanOfNode(statement), `found \`${excerpt(text, statement)}\`; expected no export other than the first-statement \`meta\``),
      );
    }
  });
  return found;
};
