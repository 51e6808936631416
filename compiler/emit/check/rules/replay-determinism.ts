import * as walk from 'acorn-walk';
import type * as acorn from 'acorn';
import type { Diagnostic } from '../../../diagnostics/diagnostic.js';
import type { HostContractRule } from '../rule.js';
import { globalPath } from '../names.js';
import { excerpt, spanOfNode, violation } from '../violation.js';

const isPath = (path: string[] | null, ...expected: string[]) =>
  path !== null && path.length === expected.length && path.every((name, i) => name === expected[i]);

/**
 * No clock and no randomness: `Date.now`, `Math.random` (read, not only called: passing
 * `Date.now` along is the same clock), `new Date()` without arguments and `Date(…)` as a
 * function, including their `globalThis.` forms. Runs replay from a journal on resume.
 */
export const checkReplayDeterminism: HostContractRule = ({ file, text, program }) => {
  if (!program) return [];
  const found: Diagnostic[] = [];
  const currentDate = (node: acorn.Node) =>
    violation(
      'host-contract/current-date',
      file,
      spanOfNode(node),
      `found \`${excerpt(text, node)}\`, which reads the clock; expected \`new Date(x)\` with an explicit time`,
    );
  walk.simple(program, {
    MemberExpression: (node) => {
      const path = globalPath(node);
      if (isPath(path, 'Date', 'now')) {
        found.push(violation('host-contract/date-now', file, spanOfNode(node), `found \`${excerpt(text, node)}\`; expected no Date.now (it throws in the sandbox)`));
      } else if (isPath(path, 'Math', 'random')) {
        found.push(violation('host-contract/math-random', file, spanOfNode(node), `found \`${excerpt(text, node)}\`; expected no Math.random (it throws in the sandbox)`));
      }
    },
    NewExpression: (node) => {
      if (isPath(globalPath(node.callee), 'Date') && node.arguments.length === 0) found.push(currentDate(node));
    },
    CallExpression: (node) => {
      // `Date(x)` ignores x and returns the current time as a string.
      if (isPath(globalPath(node.callee), 'Date')) found.push(currentDate(node));
    },
  });
  return found;
};
