import type * as acorn from 'acorn';
import * as walk from 'acorn-walk';

/**
 * Name facts the global-use rules share: which global a member chain reaches
 * (`globalThis['eval']` is `eval`), where an identifier is an operand of `typeof`, and
 * which names the script declares itself.
 */

/** The property name of `a.b`, `a['b']` or `` a[`b`] ``; null when it is computed at run time. */
export function staticPropertyName(member: acorn.MemberExpression): string | null {
  const property = member.property;
  if (!member.computed) return property.type === 'Identifier' ? property.name : null;
  if (property.type === 'Literal' && typeof property.value === 'string') return property.value;
  if (property.type === 'TemplateLiteral' && property.expressions.length === 0) {
    return property.quasis[0]?.value.cooked ?? null;
  }
  return null;
}

/**
 * The global path a node names: `Date.now` and `globalThis.Date['now']` are both
 * ["Date", "now"]; bare `globalThis` is []. Null for anything not rooted at an identifier.
 */
export function globalPath(node: acorn.Node): string[] | null {
  const expression = node as acorn.AnyNode;
  if (expression.type === 'Identifier') return expression.name === 'globalThis' ? [] : [expression.name];
  if (expression.type === 'ChainExpression') return globalPath(expression.expression);
  if (expression.type !== 'MemberExpression') return null;
  const base = globalPath(expression.object);
  const name = staticPropertyName(expression);
  if (base === null || name === null) return null;
  // globalThis.globalThis is still the global object.
  return base.length === 0 && name === 'globalThis' ? [] : [...base, name];
}

/** True when the last ancestor is the operand of `typeof` (a feature test, not a use). */
export function isTypeofOperand(ancestors: readonly acorn.Node[]): boolean {
  const node = ancestors[ancestors.length - 1];
  const parent = ancestors[ancestors.length - 2] as acorn.AnyNode | undefined;
  return parent?.type === 'UnaryExpression' && parent.operator === 'typeof' && parent.argument === node;
}

function patternNames(pattern: acorn.Pattern | null | undefined, into: Set<string>): void {
  if (!pattern) return;
  switch (pattern.type) {
    case 'Identifier':
      into.add(pattern.name);
      return;
    case 'ObjectPattern':
      for (const property of pattern.properties) {
        patternNames(property.type === 'RestElement' ? property.argument : property.value, into);
      }
      return;
    case 'ArrayPattern':
      for (const element of pattern.elements) patternNames(element, into);
      return;
    case 'RestElement':
      patternNames(pattern.argument, into);
      return;
    case 'AssignmentPattern':
      patternNames(pattern.left, into);
      return;
    default:
      return;
  }
}

/**
 * Every name the script declares anywhere (variables, functions, classes, parameters, catch
 * bindings). Scope is ignored on purpose: a script that declares its own `URL` somewhere is
 * not relying on the host's, and the emitted bundle never reuses such names by accident.
 */
export function declaredNames(statements: readonly acorn.Node[]): Set<string> {
  const names = new Set<string>();
  const fromFunction = (fn: acorn.Function) => {
    if (fn.id) names.add(fn.id.name);
    for (const param of fn.params) patternNames(param, names);
  };
  const visitors: walk.SimpleVisitors<unknown> = {
    VariableDeclarator: (node) => patternNames(node.id, names),
    FunctionDeclaration: fromFunction,
    FunctionExpression: fromFunction,
    ArrowFunctionExpression: fromFunction,
    ClassDeclaration: (node) => {
      if (node.id) names.add(node.id.name);
    },
    ClassExpression: (node) => {
      if (node.id) names.add(node.id.name);
    },
    CatchClause: (node) => patternNames(node.param, names),
  };
  for (const statement of statements) walk.simple(statement, visitors);
  return names;
}

/** Visitors for identifier uses (`Identifier`) and bindings or assignment targets (`VariablePattern`). */
export interface IdentifierVisitors {
  use?: (node: acorn.Identifier, ancestors: acorn.Node[]) => void;
  binding?: (node: acorn.Identifier, ancestors: acorn.Node[]) => void;
  member?: (node: acorn.MemberExpression, ancestors: acorn.Node[]) => void;
}

/**
 * Walks every identifier in a value position (never property names, labels or non-computed
 * keys: acorn-walk's base walker skips those) and every member expression.
 */
export function walkIdentifiers(program: acorn.Program, visitors: IdentifierVisitors): void {
  // acorn-walk dispatches bindings under the pseudo-type "VariablePattern", which its
  // typings do not list.
  const ancestorVisitors = {
    Identifier: (node: acorn.Identifier, _state: unknown, ancestors: acorn.Node[]) => visitors.use?.(node, ancestors),
    VariablePattern: (node: acorn.Identifier, _state: unknown, ancestors: acorn.Node[]) =>
      visitors.binding?.(node, ancestors),
    MemberExpression: (node: acorn.MemberExpression, _state: unknown, ancestors: acorn.Node[]) =>
      visitors.member?.(node, ancestors),
  } as walk.AncestorVisitors<unknown>;
  walk.ancestor(program, ancestorVisitors);
}
