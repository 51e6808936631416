/**
 * A checker for the part of JSON Schema (draft-07) that z.toJSONSchema writes for the
 * record schemas: type, enum, const, properties, required, additionalProperties, items,
 * minItems, maxItems, minLength, minimum, maximum, anyOf. It exists so `leopold record` and
 * the Stop hook check documents against schemas generated from the zod ones without
 * loading zod or a full validator on every scribe call (docs/decisions/record-checker.md);
 * a test holds it to Ajv on the same schemas. A keyword it does not know makes it throw,
 * so a schema change it cannot honour fails the tests instead of passing input unchecked.
 */

/** A JSON Schema object. */
export type JsonSchema = { [key: string]: unknown };

/** One problem: where (keys and indexes from the root) and what. */
export interface JsonIssue {
  path: (string | number)[];
  message: string;
}

const KNOWN = new Set([
  'type',
  'enum',
  'const',
  'properties',
  'required',
  'additionalProperties',
  'propertyNames',
  'items',
  'minItems',
  'maxItems',
  'minLength',
  'minimum',
  'maximum',
  'anyOf',
  'description',
  'default',
]);

/** How a value reads in a message: its JSON type, and the value itself when short. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return value.length <= 40 ? `the string ${JSON.stringify(value)}` : 'a string';
  if (typeof value === 'number') return Number.isInteger(value) ? `the number ${value}` : `the number ${value}`;
  if (typeof value === 'boolean') return `${value}`;
  return typeof value === 'object' ? 'an object' : typeof value;
}

const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
  null: 'null',
};

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'null':
      return value === null;
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    default:
      throw new Error(`json-check: unknown type ${type}`);
  }
}

/** Every issue of `value` against `schema`, at `path`; empty when it conforms. */
export function checkJson(schema: JsonSchema, value: unknown, path: (string | number)[] = []): JsonIssue[] {
  for (const key of Object.keys(schema)) if (!KNOWN.has(key)) throw new Error(`json-check: unsupported keyword ${key}`);
  if (Array.isArray(schema.anyOf)) return anyOf(schema.anyOf as JsonSchema[], value, path);
  const issues: JsonIssue[] = [];
  const types = schema.type === undefined ? [] : Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
  if (types.length > 0 && !types.some((type) => hasType(value, type))) {
    return [{ path, message: `expected ${types.map((type) => TYPE_NAMES[type] ?? type).join(' or ')}, got ${describeValue(value)}` }];
  }
  if ('const' in schema && value !== schema.const) issues.push({ path, message: `expected ${JSON.stringify(schema.const)}, got ${describeValue(value)}` });
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) {
    issues.push({ path, message: `expected one of ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}, got ${describeValue(value)}` });
  }
  if (typeof value === 'string' && typeof schema.minLength === 'number' && [...value].length < schema.minLength) {
    issues.push({ path, message: schema.minLength === 1 ? 'expected a non-empty string' : `expected at least ${schema.minLength} characters` });
  }
  if (typeof value === 'number') {
    if (typeof schema.minimum === 'number' && value < schema.minimum) issues.push({ path, message: `expected a number >= ${schema.minimum}, got ${value}` });
    if (typeof schema.maximum === 'number' && value > schema.maximum) issues.push({ path, message: `expected a number <= ${schema.maximum}, got ${value}` });
  }
  if (Array.isArray(value)) {
    if (typeof schema.minItems === 'number' && value.length < schema.minItems) issues.push({ path, message: `expected at least ${schema.minItems} entries` });
    if (typeof schema.maxItems === 'number' && value.length > schema.maxItems) issues.push({ path, message: `expected at most ${schema.maxItems} entries` });
    if (schema.items && typeof schema.items === 'object') value.forEach((entry, i) => issues.push(...checkJson(schema.items as JsonSchema, entry, [...path, i])));
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) issues.push(...checkObject(schema, value as Record<string, unknown>, path));
  return issues;
}

function checkObject(schema: JsonSchema, value: Record<string, unknown>, path: (string | number)[]): JsonIssue[] {
  const issues: JsonIssue[] = [];
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  for (const key of (schema.required ?? []) as string[]) {
    if (value[key] === undefined) issues.push({ path: [...path, key], message: 'missing' });
  }
  for (const [key, field] of Object.entries(value)) {
    if (field === undefined) continue;
    if (key in properties) issues.push(...checkJson(properties[key]!, field, [...path, key]));
    else if (schema.additionalProperties === false) issues.push({ path: [...path, key], message: 'not a field of this entry' });
    else if (schema.additionalProperties && typeof schema.additionalProperties === 'object') {
      issues.push(...checkJson(schema.additionalProperties as JsonSchema, field, [...path, key]));
    }
  }
  return issues;
}

// Conforms when one branch does. Otherwise the branch whose type fits the value says what
// is wrong with it (a string item against `integer | non-empty string` blames the string
// rule); with no such branch, the expected types are listed.
function anyOf(branches: readonly JsonSchema[], value: unknown, path: (string | number)[]): JsonIssue[] {
  const results = branches.map((branch) => checkJson(branch, value, path));
  if (results.some((issues) => issues.length === 0)) return [];
  const fitting = branches.findIndex((branch) => branch.type !== undefined && hasType(value, branch.type as string));
  if (fitting >= 0) return results[fitting]!;
  const expected = branches.map((branch) => TYPE_NAMES[branch.type as string] ?? 'a value').join(' or ');
  return [{ path, message: `expected ${expected}, got ${describeValue(value)}` }];
}
