import type { Diagnostic } from '../../../diagnostics/diagnostic.js';
import type { HostContractRule } from '../rule.js';
import { declaredNames, globalPath, isTypeofOperand, walkIdentifiers } from '../names.js';
import { spanOfNode, violation } from '../violation.js';
import { isMetaStatement } from './meta.js';

/**
 * Platform globals the sandbox does not provide (docs/host-contract.md names the first eleven;
 * the rest are their obvious siblings). A use throws ReferenceError at run time.
 */
export const ABSENT_GLOBALS: readonly string[] = [
  'URL',
  'Buffer',
  'TextEncoder',
  'structuredClone',
  'setInterval',
  'btoa',
  'WebAssembly',
  'WeakRef',
  'Atomics',
  'SharedArrayBuffer',
  'queueMicrotask',
  'URLSearchParams',
  'TextDecoder',
  'atob',
  'clearInterval',
  'setImmediate',
  'clearImmediate',
  'FinalizationRegistry',
];

const ABSENT = new Set(ABSENT_GLOBALS);

/**
 * No use of an absent global, unless as a `typeof` feature test or a name the script
 * declares itself. `meta` is the same kind of mistake: the host strips it before the body
 * runs, so the body cannot read it.
 */
export const checkAbsentGlobals: HostContractRule = ({ file, program }) => {
  if (!program) return [];
  // The body is what runs: the meta statement declares nothing the body can see.
  const body = isMetaStatement(program.body[0]) ? program.body.slice(1) : program.body;
  const declared = declaredNames(body);
  const found: Diagnostic[] = [];
  const report = (node: Parameters<typeof spanOfNode>[0], name: string, written: string) => {
    if (name === 'meta') {
      found.push(
        violation('host-contract/meta-in-body', file, spanOfNode(node), `found \`${written}\` in the body; expected no reference to meta, which is not in scope there`),
      );
    } else {
      found.push(
        violation('host-contract/absent-global', file, spanOfNode(node), `found \`${written}\`; expected no use of ${name}, which the sandbox does not provide`),
      );
    }
  };
  walkIdentifiers(program, {
    use: (node, ancestors) => {
      if ((ABSENT.has(node.name) || node.name === 'meta') && !declared.has(node.name) && !isTypeofOperand(ancestors)) {
        report(node, node.name, node.name);
      }
    },
    member: (node, ancestors) => {
      const path = globalPath(node);
      const name = path?.length === 1 ? path[0] : undefined;
      if (name !== undefined && ABSENT.has(name) && globalPath(node.object)?.length === 0 && !isTypeofOperand(ancestors)) {
        report(node, name, `globalThis.${name}`);
      }
    },
  });
  return found;
};
