import type { JsonSchema } from './json-check.js';
import type { RecordSchemas } from './record-schemas.js';

/**
 * Record templates made from the record schemas (record-schemas.ts), so a template can
 * never ask for a field the schema does not have or in a shape it refuses. A field the
 * caller does not fix becomes a placeholder: `"<description>"` for a string, `"<a|b>"`
 * for an enum, an unquoted `<description>` for a number (so the session writes a number,
 * not a string). `leopold record` refuses a document that still holds any placeholder.
 */

/** A hole in a template: the placeholder text and whether JSON quotes it. */
class Hole {
  constructor(
    readonly text: string,
    readonly quoted: boolean,
  ) {}
}

/** Marks a field the template leaves for the session to fill in. */
export const FILL = Symbol('fill');
type Value = unknown | typeof FILL;

/** One decision or event of a template: the fields in order, each fixed or FILL. */
export type TemplateEntry = Record<string, Value>;

function holeOf(schema: JsonSchema | undefined, name: string): unknown {
  if (schema === undefined) return new Hole(name, true);
  if (Array.isArray(schema.anyOf)) {
    // nullable or a union: the template shows its first (object or value) form.
    return holeOf((schema.anyOf as JsonSchema[]).find((branch) => branch.type !== 'null'), name);
  }
  if (Array.isArray(schema.enum)) return new Hole(schema.enum.join('|'), true);
  const described = typeof schema.description === 'string' ? schema.description : name;
  switch (schema.type) {
    case 'integer':
    case 'number':
      return new Hole(described, false);
    case 'boolean':
      return new Hole('true|false', false);
    case 'array':
      return [holeOf(schema.items as JsonSchema | undefined, name)];
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
      return Object.fromEntries(Object.entries(properties).map(([key, field]) => [key, holeOf(field, key)]));
    }
    default:
      return new Hole(described, true);
  }
}

function fill(entry: TemplateEntry, schema: JsonSchema | undefined): Record<string, unknown> {
  const properties = (schema?.properties ?? {}) as Record<string, JsonSchema>;
  return Object.fromEntries(Object.entries(entry).map(([key, value]) => [key, value === FILL ? holeOf(properties[key], key) : value]));
}

function write(value: unknown): string {
  if (value instanceof Hole) return value.quoted ? JSON.stringify(`<${value.text}>`) : `<${value.text}>`;
  if (Array.isArray(value)) return `[${value.map(write).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${JSON.stringify(k)}:${write(v)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/** A `leopold record` document as a one-line template: decisions and events, each field fixed or a placeholder. */
export function recordTemplate(schemas: RecordSchemas, doc: { decisions?: readonly TemplateEntry[]; events?: readonly TemplateEntry[] }): string {
  const out: Record<string, unknown> = {};
  if (doc.decisions) out.decisions = doc.decisions.map((entry) => fill(entry, schemas.decision));
  if (doc.events) out.events = doc.events.map((entry) => fill(entry, schemas.events[String(entry.event)]));
  return write(out);
}

/**
 * Every placeholder a template made from `schemas` can hold, as written (`<what you chose>`,
 * `<reversible|irreversible>`): a recorded string that still holds one was never filled in.
 */
export function placeholdersOf(schemas: RecordSchemas): Set<string> {
  const found = new Set<string>();
  const walk = (value: unknown) => {
    if (value instanceof Hole) found.add(`<${value.text}>`);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (value !== null && typeof value === 'object') Object.values(value).forEach(walk);
  };
  const everyField = (schema: JsonSchema) => walk(holeOf(schema, 'value'));
  everyField(schemas.decision);
  Object.values(schemas.events).forEach(everyField);
  return found;
}
