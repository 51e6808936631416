import * as walk from 'acorn-walk';
import type { Diagnostic } from '../../../diagnostics/diagnostic.js';
import type { HostContractRule } from '../rule.js';
import { excerpt, spanOfNode, violation } from '../violation.js';

/** No `import(…)` and no `import.meta` in the body: the host loads nothing at run time. */
export const checkDynamicImport: HostContractRule = ({ file, text, program }) => {
  if (!program) return [];
  const found: Diagnostic[] = [];
  walk.simple(program, {
    ImportExpression: (node) => {
      found.push(
        violation('host-contract/dynamic-import', file, spanOfNode(node), `found \`${excerpt(text, node)}\`; expected no dynamic import`),
      );
    },
    MetaProperty: (node) => {
      if (node.meta.name !== 'import') return;
      found.push(
        violation('host-contract/import', file, spanOfNode(node), 'found `import.meta`; expected no import (the body is not a module at run time)'),
      );
    },
  });
  return found;
};
