import type { Diagnostic } from '../../../diagnostics/diagnostic.js';
import type { HostContractRule } from '../rule.js';
import { globalPath, walkIdentifiers } from '../names.js';
import { spanOfNode, violation } from '../violation.js';

/** Names the sandbox lacks or disables and the emitted script must never mention (docs/host-contract.md). */
export const FORBIDDEN_GLOBALS: readonly string[] = ['require', 'process', 'fetch', 'eval', 'Function'];

const FORBIDDEN = new Set(FORBIDDEN_GLOBALS);
const EXPECTED = 'expected no require, process, fetch, eval or Function in the sandbox';

/**
 * No use, declaration or assignment of a forbidden name, and no `globalThis.<name>` /
 * `globalThis['<name>']` either. Declarations count too: a local named `process` reads
 * like the global to every reviewer, and typeof guards do not make `eval` usable.
 */
export const checkForbiddenGlobals: HostContractRule = ({ file, program }) => {
  if (!program) return [];
  const found: Diagnostic[] = [];
  walkIdentifiers(program, {
    use: (node) => {
      if (FORBIDDEN.has(node.name)) {
        found.push(violation('host-contract/forbidden-global', file, spanOfNode(node), `found \`${node.name}\`; ${EXPECTED}`));
      }
    },
    binding: (node) => {
      if (FORBIDDEN.has(node.name)) {
        found.push(
          violation('host-contract/forbidden-global', file, spanOfNode(node), `found a binding named \`${node.name}\`; ${EXPECTED}`),
        );
      }
    },
    member: (node) => {
      const path = globalPath(node);
      const name = path?.length === 1 ? path[0] : undefined;
      // Only the globalThis forms: a bare `process` is already reported as a use.
      if (name !== undefined && FORBIDDEN.has(name) && globalPath(node.object)?.length === 0) {
        found.push(
          violation('host-contract/forbidden-global', file, spanOfNode(node), `found \`globalThis.${name}\`; ${EXPECTED}`),
        );
      }
    },
  });
  return found;
};
