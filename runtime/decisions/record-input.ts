import { checkJson, type JsonIssue } from './json-check.js';
import { recordSchemas, type RecordSchemas } from './record-schemas.js';
import type { DecisionInput, EventInput, RecordInput } from './schema.js';
import { placeholdersOf } from './template.js';

// `leopold record` runs once per scribe write, so its input is checked against the JSON
// Schemas generated from schema.ts (carried as data in the build, no zod at start-up) by
// json-check.ts. Then the document is normalised as the zod schemas would give it: the
// decision strings zod trims are trimmed, keys a decision does not have are dropped,
// events keep every field.

export { DECISION_CLASSES, DECISION_FORKS } from './forks.js';

/** One problem with the input: where (keys and indexes from the root) and what. */
export type RecordIssue = JsonIssue;

/** The checked document, or every issue found. */
export type RecordInputResult = { success: true; data: RecordInput } | { success: false; issues: RecordIssue[] };

let cached: { schemas: RecordSchemas; placeholders: Set<string> } | null = null;
function schemas() {
  if (cached === null) {
    const data = recordSchemas();
    cached = { schemas: data, placeholders: placeholdersOf(data) };
  }
  return cached;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const trim = (value: unknown) => (typeof value === 'string' ? value.trim() : value);

// A string that still holds a template placeholder: exactly one of ours anywhere in it, or
// nothing but a `<…>` hole.
function placeholderIn(value: string, known: Set<string>): string | undefined {
  const whole = value.trim();
  if (/^<[^<>\n]+>$/.test(whole)) return whole;
  for (const hole of known) if (value.includes(hole)) return hole;
  return undefined;
}

function placeholders(value: unknown, path: (string | number)[], known: Set<string>, issues: RecordIssue[]): void {
  if (typeof value === 'string') {
    const hole = placeholderIn(value, known);
    if (hole !== undefined) issues.push({ path, message: `still holds the template's placeholder ${JSON.stringify(hole)}: write the real value` });
  } else if (Array.isArray(value)) value.forEach((entry, i) => placeholders(entry, [...path, i], known, issues));
  else if (isObject(value)) for (const [key, entry] of Object.entries(value)) placeholders(entry, [...path, key], known, issues);
}

const DECISION_KEYS = ['title', 'fork', 'item', 'subject', 'persona', 'class', 'charter', 'decision', 'why', 'reversal', 'turn', 'mechanical'] as const;

/** A checked decision as the zod schema gives it: the trimmed strings trimmed, unknown keys dropped. */
function normalisedDecision(value: Record<string, unknown>): DecisionInput {
  const out: Record<string, unknown> = {};
  for (const key of DECISION_KEYS) if (value[key] !== undefined) out[key] = value[key];
  out.title = trim(out.title);
  if (typeof out.item === 'string') out.item = out.item.trim();
  if (isObject(out.persona)) {
    const p = out.persona;
    out.persona = { name: trim(p.name), role: trim(p.role), expertise: (p.expertise as unknown[]).map(trim) };
  }
  return out as DecisionInput;
}

function checkDecision(value: unknown, path: (string | number)[], issues: RecordIssue[]): DecisionInput | undefined {
  const { schemas: s, placeholders: known } = schemas();
  const found = checkJson(s.decision, value, path);
  if (found.length === 0) placeholders(value, path, known, found);
  issues.push(...found);
  return found.length === 0 ? normalisedDecision(value as Record<string, unknown>) : undefined;
}

function checkEvent(value: unknown, path: (string | number)[], issues: RecordIssue[]): EventInput | undefined {
  const { schemas: s, placeholders: known } = schemas();
  if (!isObject(value)) {
    issues.push({ path, message: `expected an object, got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}` });
    return undefined;
  }
  const name = typeof value.event === 'string' ? value.event.trim() : '';
  if (name === '') {
    issues.push({ path: [...path, 'event'], message: 'missing: name the event' });
    return undefined;
  }
  if (!s.names.includes(name)) {
    issues.push({ path: [...path, 'event'], message: `unknown event ${JSON.stringify(name)}; expected one of ${Object.keys(s.events).join(', ')}` });
    return undefined;
  }
  const event = { ...value, event: name };
  const schema = s.events[name];
  const found = schema ? checkJson(schema, event, path) : [];
  if (schema && found.length === 0) placeholders(event, path, known, found);
  issues.push(...found);
  return found.length === 0 ? (event as EventInput) : undefined;
}

function list<T>(value: unknown, path: string, issues: RecordIssue[], each: (v: unknown, p: (string | number)[], issues: RecordIssue[]) => T | undefined): T[] | undefined {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    issues.push({ path: [path], message: 'expected an array' });
    return undefined;
  }
  const out = value.map((v, i) => each(v, [path, i], issues));
  return out.includes(undefined) ? undefined : (out as T[]);
}

/** One decision as the writer takes it, or a throw naming every issue. */
export function parseDecisionInput(value: unknown): DecisionInput {
  const issues: RecordIssue[] = [];
  const parsed = checkDecision(value, [], issues);
  if (parsed === undefined) throw new Error(`invalid decision: ${describeRecordIssues(issues)}`);
  return parsed;
}

/** Checks one `leopold record` document: every field of the right type, no placeholder left, something to record. */
export function parseRecordInput(value: unknown): RecordInputResult {
  const issues: RecordIssue[] = [];
  if (!isObject(value)) return { success: false, issues: [{ path: [], message: 'expected a JSON object with "decisions" and/or "events"' }] };
  const decisions = list(value.decisions, 'decisions', issues, checkDecision);
  const events = list(value.events, 'events', issues, checkEvent);
  if (decisions === undefined || events === undefined) return { success: false, issues };
  if (decisions.length + events.length === 0) {
    return { success: false, issues: [{ path: [], message: 'nothing to record: give at least one decision or event' }] };
  }
  return { success: true, data: { decisions, events } };
}

/** The first five issues on one line: `decisions.0.class: expected one of …; …`. */
export function describeRecordIssues(issues: readonly RecordIssue[]): string {
  return issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length === 0 ? 'input' : issue.path.join('.')}: ${issue.message}`)
    .join('; ');
}
