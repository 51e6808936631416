import type * as acorn from 'acorn';
import type { Diagnostic } from '../../../diagnostics/diagnostic.js';
import { metaFieldIssues } from '../meta-schema.js';
import type { HostContractRule } from '../rule.js';
import { excerpt, spanOfNode, violation } from '../violation.js';

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** True for `export const|let|var meta …`: the statement the host takes as meta, right or wrong. */
export function isMetaStatement(statement: acorn.Statement | acorn.ModuleDeclaration | undefined): boolean {
  return (
    statement?.type === 'ExportNamedDeclaration' &&
    statement.declaration?.type === 'VariableDeclaration' &&
    statement.declaration.declarations.some((d) => d.id.type === 'Identifier' && d.id.name === 'meta')
  );
}

/** The first statement is `export const meta = { … }`: a pure literal with the host's fields. */
export const checkMeta: HostContractRule = ({ file, text, program }) => {
  if (!program) return [];
  const first = program.body[0];
  const expected = 'expected the first statement to be `export const meta = { … }`';
  if (!first) {
    const span = { line: 1, column: 1, endLine: 1, endColumn: 1 };
    return [violation('host-contract/meta-first', file, span, `found no statements; ${expected}`)];
  }
  if (!isMetaStatement(first) || first.type !== 'ExportNamedDeclaration' || !first.declaration) {
    return [violation('host-contract/meta-first', file, spanOfNode(first), `found \`${excerpt(text, first)}\`; ${expected}`)];
  }
  const declaration = first.declaration as acorn.VariableDeclaration;
  const declarator = declaration.declarations[0];
  if (declaration.kind !== 'const') {
    return [
      violation('host-contract/meta-first', file, spanOfNode(declaration), `found \`export ${declaration.kind} meta\`; ${expected}`),
    ];
  }
  if (declaration.declarations.length !== 1 || !declarator || declarator.id.type !== 'Identifier' || declarator.id.name !== 'meta') {
    return [
      violation('host-contract/meta-first', file, spanOfNode(declaration), `found ${declaration.declarations.length} declarations in the meta statement; ${expected} declaring meta alone`),
    ];
  }
  const init = declarator.init;
  if (!init || init.type !== 'ObjectExpression') {
    const at = init ?? declarator;
    const found = init ? `\`${excerpt(text, init)}\`` : 'no initialiser';
    return [violation('host-contract/meta-first', file, spanOfNode(at), `found ${found} as meta; expected an object literal \`{ … }\``)];
  }
  const literal = readLiteral(init, 'meta', text);
  const problems = literal.problems.map(({ node, message }) =>
    violation('host-contract/meta-literal', file, spanOfNode(node), message),
  );
  return problems.length > 0 ? problems : fieldProblems(file, init, literal.value);
};

interface LiteralProblem {
  node: acorn.Node;
  message: string;
}

interface Literal {
  value: unknown;
  problems: LiteralProblem[];
}

const PURE = 'expected a pure literal (strings, numbers, booleans, null, arrays, objects, templates without ${})';

/** Evaluates a pure-literal expression, collecting every part that is not one. */
function readLiteral(node: acorn.AnyNode, path: string, text: string): Literal {
  const refuse = (at: acorn.Node, found: string): Literal => ({
    value: undefined,
    problems: [{ node: at, message: `found ${found} at ${path}; ${PURE}` }],
  });
  switch (node.type) {
    case 'Literal':
      if ('regex' in node && node.regex) return refuse(node, `a regular expression \`${excerpt(text, node)}\``);
      if ('bigint' in node && node.bigint !== undefined) return refuse(node, `a BigInt \`${excerpt(text, node)}\``);
      return { value: node.value, problems: [] };
    case 'TemplateLiteral':
      if (node.expressions.length > 0) return refuse(node, 'a template with ${…}');
      return { value: node.quasis[0]?.value.cooked ?? '', problems: [] };
    case 'UnaryExpression':
      // `-1` is how JavaScript spells a negative number literal.
      if (node.operator === '-' && node.argument.type === 'Literal' && typeof node.argument.value === 'number') {
        return { value: -node.argument.value, problems: [] };
      }
      return refuse(node, `an expression \`${excerpt(text, node)}\``);
    case 'ArrayExpression': {
      const value: unknown[] = [];
      const problems: LiteralProblem[] = [];
      node.elements.forEach((element, index) => {
        if (element === null) {
          problems.push({ node, message: `found an array hole at ${path}[${index}]; ${PURE}` });
        } else if (element.type === 'SpreadElement') {
          problems.push(...refuse(element, 'a spread `...`').problems);
        } else {
          const entry = readLiteral(element, `${path}[${index}]`, text);
          value.push(entry.value);
          problems.push(...entry.problems);
        }
      });
      return { value, problems };
    }
    case 'ObjectExpression': {
      const value: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
      const problems: LiteralProblem[] = [];
      for (const property of node.properties) {
        if (property.type === 'SpreadElement') {
          problems.push(...refuse(property, 'a spread `...`').problems);
          continue;
        }
        const key = propertyKey(property);
        const where = key === null ? path : `${path}.${key}`;
        const shape = propertyShapeProblem(property, key);
        if (shape) {
          problems.push({ node: shape.node, message: `found ${shape.found} at ${where}; ${PURE}` });
          continue;
        }
        const entry = readLiteral(property.value as acorn.AnyNode, where, text);
        value[key as string] = entry.value;
        problems.push(...entry.problems);
      }
      return { value, problems };
    }
    case 'Identifier':
      return refuse(node, `an identifier \`${node.name}\``);
    case 'CallExpression':
    case 'NewExpression':
    case 'TaggedTemplateExpression':
      return refuse(node, `a call \`${excerpt(text, node)}\``);
    default:
      return refuse(node, `an expression \`${excerpt(text, node)}\``);
  }
}

function propertyKey(property: acorn.Property): string | null {
  if (property.computed) return null;
  if (property.key.type === 'Identifier') return property.key.name;
  if (property.key.type === 'Literal' && (typeof property.key.value === 'string' || typeof property.key.value === 'number')) {
    return String(property.key.value);
  }
  return null;
}

function propertyShapeProblem(property: acorn.Property, key: string | null): { node: acorn.Node; found: string } | null {
  if (property.computed) return { node: property.key, found: 'a computed key `[…]`' };
  if (property.kind === 'get' || property.kind === 'set') return { node: property, found: `a ${property.kind}ter` };
  if (property.method) return { node: property, found: 'a method' };
  if (property.shorthand) return { node: property, found: `a shorthand property (the identifier \`${key}\`)` };
  if (key === null) return { node: property.key, found: 'an unsupported key' };
  if (FORBIDDEN_KEYS.has(key)) return { node: property.key, found: `the key \`${key}\`` };
  return null;
}

/** The node a zod path points at, or the deepest one that exists (a missing key: its object). */
function nodeAtPath(root: acorn.AnyNode, path: readonly PropertyKey[]): acorn.AnyNode {
  let node = root;
  for (const segment of path) {
    let next: acorn.AnyNode | undefined;
    if (node.type === 'ObjectExpression') {
      const match = node.properties.filter(
        (property): property is acorn.Property => property.type === 'Property' && propertyKey(property) === String(segment),
      );
      next = match[match.length - 1]?.value as acorn.AnyNode | undefined;
    } else if (node.type === 'ArrayExpression' && typeof segment === 'number') {
      const element = node.elements[segment];
      next = element && element.type !== 'SpreadElement' ? element : undefined;
    }
    if (!next) return node;
    node = next;
  }
  return node;
}

function fieldProblems(file: string, metaNode: acorn.ObjectExpression, value: unknown): Diagnostic[] {
  return metaFieldIssues(value).map((issue) => violation('host-contract/meta-field', file, spanOfNode(nodeAtPath(metaNode, issue.path)), issue.message));
}
