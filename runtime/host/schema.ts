import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';

/**
 * Agent output schemas (docs/host-contract.md): the root is `{ type: 'object', properties }`,
 * `required` a subset of the properties, checked with Ajv; formats are not enforced. The
 * draft follows `$schema` (zod's toJSONSchema writes 2020-12), draft-07 otherwise.
 */

/** A compiled agent schema. */
export interface AgentSchema {
  validate(value: unknown): boolean;
  /** Ajv's first complaint about the last value validated. */
  lastError(): string;
}

const options = { strict: false, validateFormats: false, allErrors: false } as const;
let validators: { draft7: Ajv; draft2019: Ajv2019; draft2020: Ajv2020 } | null = null;

function validatorFor(schema: Record<string, unknown>): Ajv | Ajv2019 | Ajv2020 {
  validators ??= { draft7: new Ajv(options), draft2019: new Ajv2019(options), draft2020: new Ajv2020(options) };
  const draft = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (draft.includes('2020-12')) return validators.draft2020;
  if (draft.includes('2019-09')) return validators.draft2019;
  return validators.draft7;
}

// Compiled validators by schema text. A script builds a fresh schema object for every
// agent() call, so Ajv (which caches by object) compiled the same schema again on each one;
// equal text means an equal schema, whatever object it arrived in. Bounded, for a run that
// generates schemas.
const compiled = new Map<string, ValidateFunction>();
const MAX_COMPILED = 256;

function compiledValidator(schema: Record<string, unknown>): ValidateFunction {
  const text = JSON.stringify(schema);
  const cached = compiled.get(text);
  if (cached) return cached;
  let validate: ValidateFunction;
  try {
    validate = validatorFor(schema).compile(schema);
  } catch (error) {
    throw new TypeError(`agent(): opts.schema is not a valid JSON Schema: ${(error as Error).message}`);
  }
  if (compiled.size >= MAX_COMPILED) compiled.clear();
  compiled.set(text, validate);
  return validate;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Checks the root shape and compiles the schema; throws a TypeError message on a bad one. */
export function compileAgentSchema(schema: unknown): AgentSchema {
  if (!isPlainObject(schema)) throw new TypeError('agent(): opts.schema must be an object');
  if (schema.type !== 'object') throw new TypeError("agent(): opts.schema must have type: 'object' at the root");
  const properties = schema.properties;
  if (!isPlainObject(properties)) throw new TypeError('agent(): opts.schema must have a properties object at the root');
  if (schema.required !== undefined) {
    if (!Array.isArray(schema.required)) throw new TypeError('agent(): opts.schema.required must be an array of property names');
    const missing = schema.required.filter((key) => typeof key !== 'string' || !Object.hasOwn(properties, key));
    if (missing.length > 0) {
      throw new TypeError(`agent(): opts.schema.required names ${missing.map((key) => JSON.stringify(key)).join(', ')}, not in properties`);
    }
  }
  // Ajv caches by $id: drop it so two scripts reusing an id never collide across runs.
  const { $id: _id, ...rest } = schema;
  const validate = compiledValidator(rest);
  return {
    validate: (value) => validate(value) === true,
    lastError: () => {
      const first = validate.errors?.[0];
      if (!first) return 'invalid';
      return `${first.instancePath || '(root)'} ${first.message ?? 'is invalid'}`;
    },
  };
}
