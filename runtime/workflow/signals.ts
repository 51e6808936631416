import { declaredValues } from '../plan/kind-facts.js';
import { signalStrings } from '../run/index.js';
import type { EmbeddedNode } from './plan.js';

/**
 * Signals in the agent's structured answer. Every answer schema has an optional `signals`
 * object (agent-schemas.ts); for a node that declares `@emit` keys, each call narrows it to
 * exactly those keys, each an `enum` of its declared values with the first as its
 * `default` (the stand-in host and the scripted model answer with it when nothing is
 * scripted), and requires it. A node that declares none keeps the generic schema, so the
 * agent() schemas of plans without signals are what they were.
 */
export function withSignals(schema: Record<string, unknown>, node: Pick<EmbeddedNode, 'emits'>): Record<string, unknown> {
  const declared = declaredValues(node);
  if (declared.size === 0) return schema;
  const properties = schema.properties as Record<string, Record<string, unknown>>;
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const keys = [...declared.keys()];
  const signals = {
    ...properties.signals,
    type: 'object',
    properties: Object.fromEntries(keys.map((key) => [key, { type: 'string', enum: declared.get(key)!, default: declared.get(key)![0] }])),
    required: keys,
    additionalProperties: false,
    default: Object.fromEntries(keys.map((key) => [key, declared.get(key)![0]])),
  };
  return { ...schema, properties: { ...properties, signals }, required: [...required.filter((k) => k !== 'signals'), 'signals'] };
}

/** The `signals` of an answer as plain strings (anything else in it is dropped), or undefined. */
export function answeredSignals(answer: { signals?: unknown } | null | undefined): Record<string, string> | undefined {
  return signalStrings(answer?.signals);
}

/** The prompt section that tells an agent which signal values it may report, or null when the node declares none. */
export function signalsInstruction(node: Pick<EmbeddedNode, 'emits'>): string | null {
  const declared = declaredValues(node);
  if (declared.size === 0) return null;
  const lines = [...declared].map(([key, values]) =>
    values.length > 1 ? `- ${key}: one of ${values.join(' | ')} (the plan routes on your choice; default ${values[0]})` : `- ${key}: ${values[0]}`,
  );
  return [
    'This item declares signals. In `signals`, give the value you chose for each key (only these keys, only these values):',
    ...lines,
  ].join('\n');
}
