import type * as acorn from 'acorn';
import { z } from 'zod';

/**
 * `meta` is read, never run (docs/host-contract.md): the first statement's object literal is
 * evaluated here from the AST, and anything that is not a pure literal is refused.
 */

const nonEmpty = z.string().refine((value) => value.trim().length > 0, { error: 'expected a non-empty string' });

/** The fields the host reads; other keys are kept as written. */
export const HostMetaSchema = z.looseObject({
  name: nonEmpty,
  description: nonEmpty,
  phases: z.array(z.strictObject({ title: z.string(), detail: z.string().optional(), model: z.string().optional() })).optional(),
  whenToUse: z.string().optional(),
  title: z.string().optional(),
});

/** A meta problem, at a node. */
export class MetaProblem extends Error {
  constructor(
    message: string,
    readonly node: acorn.Node,
  ) {
    super(message);
  }
}

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** The value of a pure literal (strings, numbers, booleans, null, arrays, objects, templates without `${}`). */
export function evaluateLiteral(node: acorn.AnyNode, path = 'meta'): unknown {
  const refuse = (what: string, at: acorn.Node = node): never => {
    throw new MetaProblem(`meta must be a pure literal: found ${what} at ${path}`, at);
  };
  switch (node.type) {
    case 'Literal':
      if ('regex' in node && node.regex) return refuse('a regular expression');
      if ('bigint' in node && node.bigint !== undefined) return refuse('a BigInt');
      return node.value;
    case 'TemplateLiteral':
      if (node.expressions.length > 0) return refuse('a template with ${…}');
      return node.quasis[0]?.value.cooked ?? '';
    case 'UnaryExpression':
      // `-1` is how JavaScript writes a negative number.
      if (node.operator === '-' && node.argument.type === 'Literal' && typeof node.argument.value === 'number') {
        return -node.argument.value;
      }
      return refuse(`the operator ${node.operator}`);
    case 'ArrayExpression':
      return node.elements.map((element, index) => {
        if (element === null) return refuse('an array hole');
        if (element.type === 'SpreadElement') return refuse('a spread', element);
        return evaluateLiteral(element, `${path}[${index}]`);
      });
    case 'ObjectExpression': {
      const value: Record<string, unknown> = {};
      for (const property of node.properties) {
        if (property.type === 'SpreadElement') return refuse('a spread', property);
        if (property.computed) return refuse('a computed key', property);
        if (property.kind !== 'init' || property.method) return refuse('a method or accessor', property);
        if (property.shorthand) return refuse('a shorthand property (an identifier)', property);
        const key =
          property.key.type === 'Identifier'
            ? property.key.name
            : property.key.type === 'Literal' && (typeof property.key.value === 'string' || typeof property.key.value === 'number')
              ? String(property.key.value)
              : refuse('an unsupported key', property.key);
        if (FORBIDDEN_KEYS.has(key)) return refuse(`the key ${key}`, property.key);
        Object.defineProperty(value, key, {
          value: evaluateLiteral(property.value as acorn.AnyNode, `${path}.${key}`),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return value;
    }
    case 'Identifier':
      return refuse(`the identifier ${node.name}`);
    case 'CallExpression':
    case 'NewExpression':
    case 'TaggedTemplateExpression':
      return refuse('a call');
    default:
      return refuse(`an expression (${node.type})`);
  }
}

/** The meta statement's value, fields checked; throws MetaProblem. */
export function readMeta(statement: acorn.Statement | acorn.ModuleDeclaration | undefined, program: acorn.Program): Record<string, unknown> {
  const expected = 'the first statement must be `export const meta = { … }`';
  if (!statement) throw new MetaProblem(`${expected}; found no statement`, program);
  const declaration = statement.type === 'ExportNamedDeclaration' ? statement.declaration : null;
  if (declaration?.type !== 'VariableDeclaration' || declaration.kind !== 'const' || declaration.declarations.length !== 1) {
    throw new MetaProblem(expected, statement);
  }
  const declarator = declaration.declarations[0];
  if (!declarator || declarator.id.type !== 'Identifier' || declarator.id.name !== 'meta') throw new MetaProblem(expected, statement);
  if (declarator.init?.type !== 'ObjectExpression') throw new MetaProblem('meta must be an object literal `{ … }`', declarator);
  const value = evaluateLiteral(declarator.init);
  const parsed = HostMetaSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = ['meta', ...(issue?.path ?? []).map((segment) => (typeof segment === 'number' ? `[${segment}]` : `.${String(segment)}`))].join('');
    throw new MetaProblem(`invalid meta at ${where}: ${issue?.message ?? 'unexpected value'}`, declarator.init);
  }
  return value as Record<string, unknown>;
}
