import type { DecisionInput, EventInput, RecordInput } from './schema.js';

// `leopold record` runs once per scribe write, so its input check is plain code instead of
// zod (loading zod is most of a cold start). It accepts exactly what schema.ts's
// RecordInputSchema accepts, gives the same output (strings trimmed, unknown decision keys
// dropped, event fields kept) and reports issues at the same paths; a property test
// (test/runtime/decisions/record-input.test.ts) holds the two together. The zod schemas
// stay the types and the documentation.

import { DECISION_FORKS } from './forks.js';

export { DECISION_FORKS };
/** The decision classes; DecisionClassSchema is built from this list. */
export const DECISION_CLASSES = ['reversible', 'irreversible'] as const;

/** One problem with the input: where (keys and indexes from the root) and what. */
export interface RecordIssue {
  path: (string | number)[];
  message: string;
}

/** The checked document, or every issue found. */
export type RecordInputResult = { success: true; data: RecordInput } | { success: false; issues: RecordIssue[] };

type Path = (string | number)[];
type Issues = RecordIssue[];

const REQUIRED_UNLESS_MECHANICAL = ['class', 'charter', 'decision', 'why'] as const;

// As in zod, a value of the right type that is too small (a blank string, a negative turn)
// is a soft issue: the entry's refinement (required fields) still runs. A wrong type or an
// unknown option stops it.
const soft = new WeakSet<RecordIssue>();
function tooBig(issues: Issues, path: Path): undefined {
  const issue = { path, message: 'Too big: expected int to be a safe integer' };
  soft.add(issue);
  issues.push(issue);
  return undefined;
}
function tooSmall(issues: Issues, path: Path, message: string): undefined {
  const issue = { path, message: `Too small: ${message}` };
  soft.add(issue);
  issues.push(issue);
  return undefined;
}

function received(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function expected(issues: Issues, path: Path, what: string, value: unknown): undefined {
  issues.push({ path, message: `Invalid input: expected ${what}, received ${received(value)}` });
  return undefined;
}

/** A string, trimmed, at least one character after trimming. */
function nonBlank(value: unknown, path: Path, issues: Issues): string | undefined {
  if (typeof value !== 'string') return expected(issues, path, 'string', value);
  const trimmed = value.trim();
  if (trimmed.length === 0) return tooSmall(issues, path, 'expected string to have >=1 characters');
  return trimmed;
}

function oneOf<T extends string>(options: readonly T[], value: unknown, path: Path, issues: Issues): T | undefined {
  if (typeof value === 'string' && (options as readonly string[]).includes(value)) return value as T;
  issues.push({ path, message: `Invalid option: expected one of ${options.map((o) => JSON.stringify(o)).join('|')}` });
  return undefined;
}

function integerAtLeast(min: number, value: unknown, path: Path, issues: Issues): number | undefined {
  if (typeof value !== 'number' || Number.isNaN(value)) return expected(issues, path, 'number', value);
  if (!Number.isInteger(value)) return expected(issues, path, 'int', value);
  if (!Number.isSafeInteger(value)) return value < 0 ? tooSmall(issues, path, 'expected int to be a safe integer') : tooBig(issues, path);
  if (value < min) return tooSmall(issues, path, `expected number to be >=${min}`);
  return value;
}

function persona(value: unknown, path: Path, issues: Issues): DecisionInput['persona'] {
  if (value === null) return null;
  if (!isObject(value)) return expected(issues, path, 'object', value);
  const name = nonBlank(value.name, [...path, 'name'], issues);
  const role = nonBlank(value.role, [...path, 'role'], issues);
  const list = value.expertise;
  if (!Array.isArray(list)) {
    expected(issues, [...path, 'expertise'], 'array', list);
    return undefined;
  }
  const expertise = list.map((e, i) => nonBlank(e, [...path, 'expertise', i], issues));
  return name === undefined || role === undefined || expertise.includes(undefined)
    ? undefined
    : { name, role, expertise: expertise as string[] };
}

// Each optional field: present (not undefined) means it must check out.
function decision(value: unknown, path: Path, issues: Issues): DecisionInput | undefined {
  if (!isObject(value)) return expected(issues, path, 'object', value);
  const before = issues.length;
  const out: Record<string, unknown> = {};
  const set = (key: string, check: (v: unknown, p: Path) => unknown) => {
    if (value[key] === undefined) return;
    const checked = check(value[key], [...path, key]);
    if (checked !== undefined) out[key] = checked;
  };
  const title = nonBlank(value.title, [...path, 'title'], issues);
  if (title !== undefined) out.title = title;
  set('fork', (v, p) => oneOf(DECISION_FORKS, v, p, issues));
  set('item', (v, p) => {
    if (typeof v === 'string') return nonBlank(v, p, issues);
    if (typeof v === 'number') return integerAtLeast(1, v, p, issues);
    issues.push({ path: p, message: 'Invalid input' });
    return undefined;
  });
  if (value.persona !== undefined) {
    const checked = persona(value.persona, [...path, 'persona'], issues);
    if (checked !== undefined) out.persona = checked;
  }
  set('class', (v, p) => oneOf(DECISION_CLASSES, v, p, issues));
  for (const key of ['charter', 'decision', 'why', 'reversal', 'subject']) {
    set(key, (v, p) => (typeof v === 'string' ? v : expected(issues, p, 'string', v)));
  }
  set('turn', (v, p) => integerAtLeast(0, v, p, issues));
  set('mechanical', (v, p) => (typeof v === 'boolean' ? v : expected(issues, p, 'boolean', v)));
  // DecisionInputSchema's refinement, which runs unless a value had the wrong type.
  if (issues.slice(before).every((issue) => soft.has(issue)) && !out.mechanical) {
    for (const key of REQUIRED_UNLESS_MECHANICAL) {
      if (out[key] === undefined) issues.push({ path: [...path, key], message: `${key} is required unless the decision is mechanical` });
    }
  }
  return issues.length > before ? undefined : (out as DecisionInput);
}

function event(value: unknown, path: Path, issues: Issues): EventInput | undefined {
  if (!isObject(value)) return expected(issues, path, 'object', value);
  const name = nonBlank(value.event, [...path, 'event'], issues);
  return name === undefined ? undefined : { ...value, event: name };
}

function list<T>(value: unknown, path: Path, issues: Issues, each: (v: unknown, p: Path, issues: Issues) => T | undefined): T[] | undefined {
  if (value === undefined) return [];
  if (!Array.isArray(value)) return expected(issues, path, 'array', value);
  const out = value.map((v, i) => each(v, [...path, i], issues));
  return out.includes(undefined) ? undefined : (out as T[]);
}

/** Decision input as DecisionInputSchema.parse gives it, or a throw naming every issue. */
export function parseDecisionInput(value: unknown): DecisionInput {
  const issues: Issues = [];
  const parsed = decision(value, [], issues);
  if (parsed === undefined) throw new Error(`invalid decision: ${describeRecordIssues(issues)}`);
  return parsed;
}

/** Checks one `leopold record` document as RecordInputSchema.safeParse does. */
export function parseRecordInput(value: unknown): RecordInputResult {
  const issues: Issues = [];
  if (!isObject(value)) {
    expected(issues, [], 'object', value);
    return { success: false, issues };
  }
  const decisions = list(value.decisions, ['decisions'], issues, decision);
  const events = list(value.events, ['events'], issues, event);
  if (decisions === undefined || events === undefined) return { success: false, issues };
  if (decisions.length + events.length === 0) {
    return { success: false, issues: [{ path: [], message: 'nothing to record: give at least one decision or event' }] };
  }
  return { success: true, data: { decisions, events } };
}

/** The first five issues on one line: `decisions.0.class: Invalid option…; …`. */
export function describeRecordIssues(issues: readonly RecordIssue[]): string {
  return issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length === 0 ? 'input' : issue.path.join('.')}: ${issue.message}`)
    .join('; ');
}
