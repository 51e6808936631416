/**
 * The answer an agent gets when no rule of the answer script matches: "ok" without a
 * schema; with one, a value shaped from it, deterministically, so a plain simulation walks
 * the happy path:
 *
 * - `const` → that value; `enum` → its first value; `default` → that value;
 * - `anyOf` / `oneOf` → the first branch; `allOf` → the branches merged (objects only);
 * - `type` (the first non-null one of a list): object → its required properties, each
 *   shaped the same way; array → `minItems` shaped items (usually []); string → ""
 *   padded with "x" to `minLength`; number / integer → 0, or the smallest value
 *   `minimum` / `exclusiveMinimum` allow; boolean → true; null → null;
 * - `if` / `then` on an object: when the shaped value meets the `if` consts, the `then`
 *   properties' constraints are added and those properties shaped again;
 * - local `$ref` (`#/$defs/…`, `#/definitions/…`) is followed (to a depth of 32).
 *
 * The result is validated like any answer; a schema the rules cannot satisfy fails its
 * attempts, which tells the user to script that agent.
 */

/** The default final text of an agent without a schema. */
export const DEFAULT_TEXT_ANSWER = 'ok';

type Schema = Record<string, unknown>;

const isObject = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A value shaped from the schema (see the module comment for the rules). */
export function defaultAnswerFor(schema: Schema): unknown {
  return shape(schema, schema, 0);
}

function resolveRef(root: Schema, ref: string): Schema | null {
  if (!ref.startsWith('#/')) return null;
  let node: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    node = isObject(node) ? node[key] : undefined;
  }
  return isObject(node) ? node : null;
}

function shape(schema: unknown, root: Schema, depth: number): unknown {
  if (!isObject(schema) || depth > 32) return null;
  if (typeof schema.$ref === 'string') {
    const target = resolveRef(root, schema.$ref);
    return target ? shape(target, root, depth + 1) : null;
  }
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if ('default' in schema) return schema.default;
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = schema[key];
    if (Array.isArray(branches) && branches.length > 0) return shape(branches[0], root, depth + 1);
  }
  if (Array.isArray(schema.allOf) && schema.allOf.length > 0) {
    const parts = schema.allOf.map((part) => shape(part, root, depth + 1));
    return parts.every(isObject) ? Object.assign({}, ...parts) : parts[0];
  }
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const type = types.find((t) => t !== 'null') ?? types[0] ?? (isObject(schema.properties) ? 'object' : undefined);
  switch (type) {
    case 'object': {
      const properties = isObject(schema.properties) ? schema.properties : {};
      const required = Array.isArray(schema.required) ? schema.required.filter((k): k is string => typeof k === 'string') : [];
      const value: Record<string, unknown> = {};
      for (const key of required) value[key] = shape(properties[key], root, depth + 1);
      return withConditional(schema, properties, value, root, depth);
    }
    case 'array': {
      const count = typeof schema.minItems === 'number' ? schema.minItems : 0;
      const items = Array.isArray(schema.prefixItems) ? schema.prefixItems : [];
      return Array.from({ length: count }, (_, i) => shape(items[i] ?? schema.items, root, depth + 1));
    }
    case 'string':
      return 'x'.repeat(typeof schema.minLength === 'number' ? schema.minLength : 0);
    case 'number':
    case 'integer': {
      if (typeof schema.minimum === 'number' && schema.minimum > 0) {
        return type === 'integer' ? Math.ceil(schema.minimum) : schema.minimum;
      }
      if (typeof schema.exclusiveMinimum === 'number' && schema.exclusiveMinimum >= 0) {
        return Math.floor(schema.exclusiveMinimum) + 1;
      }
      return 0;
    }
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return null;
  }
}

/** Applies an object schema's `then` when the shaped value meets its `if` (consts only). */
function withConditional(schema: Schema, properties: Schema, value: Record<string, unknown>, root: Schema, depth: number): Record<string, unknown> {
  const test = isObject(schema.if) && isObject(schema.if.properties) ? schema.if.properties : null;
  const then = isObject(schema.then) && isObject(schema.then.properties) ? schema.then.properties : null;
  if (!test || !then) return value;
  const holds = Object.entries(test).every(([key, rule]) => !isObject(rule) || !('const' in rule) || JSON.stringify(value[key]) === JSON.stringify(rule.const));
  if (!holds) return value;
  for (const [key, extra] of Object.entries(then)) {
    if (key in value && isObject(extra)) value[key] = shape({ ...(isObject(properties[key]) ? properties[key] : {}), ...extra }, root, depth + 1);
  }
  return value;
}

