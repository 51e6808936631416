import { isSuccess, type RunModel } from '../run/index.js';
import type { EmbeddedNode, EmbeddedPlan } from './plan.js';

/** What the run remembers about one work item between its attempts (prompts only; the run model holds the counts and the last failure's evidence). */
export interface ItemMemory {
  /** One line per failed attempt, for the rescue's persona. */
  evidence: string[];
}

/**
 * The run model as a continuation carries it: the model whole (runtime/run/schema.ts's
 * RunModel, every field as it is), but for routing's statuses, grouped by status as index
 * ranges (`{"ok":"1-240,245"}`), and signal records left out where empty. The main thread
 * passes a continuation through the task notification's 8,000-character preview, and a
 * status per item would not fit a long run.
 */
export type PackedModel = Omit<RunModel, 'routing'> & { routing: Omit<RunModel['routing'], 'statuses'> & { statuses: Record<string, string> } };

/**
 * What a workflow run that ended at `run_budget` hands the next launch of the same script
 * (docs/workflow.md, "Runs that continue"): the run model (packed), the items earlier
 * launches appended, the failure evidence of open items for the rescue's persona, and the
 * last decision number. The script cannot read files, and the lock keeps
 * `.claude/workflows/` read-only, so the next launch runs the same script and this object
 * is its `args.continue`: the skill passes the previous result's `continue` verbatim.
 */
export interface Continuation {
  /** The SHA-256 of the PLAN.md the script embeds: a continuation is for this compile only. */
  plan: string;
  /** The launch this continuation starts (2 for the first relaunch). */
  launch: number;
  model: PackedModel;
  /** Work items earlier launches appended (a @feedback node's accepted changes). */
  added: EmbeddedNode[];
  /** Open items' failed attempts, one line each, for the rescue's persona. */
  memory: Record<string, ItemMemory>;
  /** The highest decision number the run's scribe acknowledged. */
  lastDecision: number;
}

/** The model with its statuses packed as ranges by status and empty signal records left out. */
export function packModel(model: RunModel): PackedModel {
  const byStatus = new Map<string, number[]>();
  for (const [index, status] of Object.entries(model.routing.statuses)) {
    const list = byStatus.get(status) ?? [];
    list.push(Number(index));
    byStatus.set(status, list);
  }
  const statuses: Record<string, string> = {};
  for (const status of [...byStatus.keys()].sort()) statuses[status] = rangesOf(byStatus.get(status)!);
  const signals: Record<string, Record<string, string>> = {};
  for (const [index, sent] of Object.entries(model.routing.signals)) if (Object.keys(sent).length > 0) signals[index] = { ...sent };
  return { ...structuredCopy(model), routing: { ...structuredCopy(model.routing), statuses, signals } };
}

/** packModel's inverse: every item with a status gets its signal record back (empty when none was sent). */
export function unpackModel(packed: PackedModel): RunModel {
  const statuses: Record<string, string> = {};
  for (const [status, ranges] of Object.entries(packed.routing.statuses)) {
    if (typeof ranges !== 'string') throw new Error(`the items of status ${status} are not ranges`);
    for (const index of indexesOf(ranges)) statuses[String(index)] = status;
  }
  const signals: Record<string, Record<string, string>> = {};
  for (const index of Object.keys(statuses)) signals[index] = { ...(packed.routing.signals[index] ?? {}) };
  return { ...structuredCopy(packed), routing: { ...structuredCopy(packed.routing), statuses, signals } } as RunModel;
}

// A deep copy of plain JSON data (the sandbox has no structuredClone).
const structuredCopy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** The continuation of a run stopped at `run_budget`. */
export function continuationOf(
  plan: EmbeddedPlan,
  launch: number,
  model: RunModel,
  added: readonly EmbeddedNode[],
  memory: ReadonlyMap<number, ItemMemory>,
  lastDecision: number,
): Continuation {
  const open: Record<string, ItemMemory> = {};
  for (const [index, mine] of [...memory].sort((a, b) => a[0] - b[0])) {
    if (mine.evidence.length > 0 && !isSuccess(model.routing.statuses[String(index)])) open[String(index)] = { evidence: [...mine.evidence] };
  }
  return { plan: plan.source.sha256, launch: launch + 1, model: packModel(model), added: added.map((node) => ({ ...node })), memory: open, lastDecision };
}

/** What a launch resumes from: the model, the plan with earlier launches' work done and appended, the item memory. */
export interface Resumed {
  launch: number;
  model: RunModel;
  plan: EmbeddedPlan;
  memory: Map<number, ItemMemory>;
  lastDecision: number;
}

/**
 * Reads `args.continue` back (zod-free: the script bundles this). Throws on anything that
 * is not a continuation of this very plan: running on from a wrong one would do work twice
 * or skip it, so the launch fails and says why.
 */
export function resumeFrom(embedded: EmbeddedPlan, raw: unknown): Resumed {
  const c = raw as Continuation;
  const bad = (what: string) => new Error(`args.continue is not a continuation of this run (${what}); relaunch with the previous result's "continue" exactly`);
  const isObject = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!isObject(c)) throw bad('not an object');
  if (c.plan !== embedded.source.sha256) throw bad('it belongs to another compile of PLAN.md');
  for (const field of ['launch', 'lastDecision'] as const) if (!Number.isInteger(c[field]) || c[field] < 0) throw bad(`${field} is not a whole number`);
  if (!isObject(c.model) || !isObject(c.model.routing) || !isObject(c.model.routing.statuses)) throw bad('model is not a packed run model');
  if (!Number.isInteger(c.model.iteration) || c.model.iteration < 0) throw bad('model.iteration is not a whole number');
  if (!isObject(c.memory) || !Array.isArray(c.added)) throw bad('memory is not an object or added is not a list');
  let model: RunModel;
  try {
    model = unpackModel(c.model);
  } catch (error) {
    throw bad((error as Error).message);
  }
  const statuses = model.routing.statuses;
  const items = [...embedded.items, ...c.added].map((node) => (isSuccess(statuses[String(node.index)]) && !node.done ? { ...node, done: true } : node));
  const plan: EmbeddedPlan = {
    ...embedded,
    items,
    waves: [...embedded.waves.map((wave) => [...wave]), ...(c.added.length > 0 ? [c.added.map((node) => node.index)] : [])],
  };
  const memory = new Map(Object.entries(c.memory).map(([index, mine]) => [Number(index), { evidence: [...mine.evidence] }]));
  return { launch: c.launch, model, plan, memory, lastDecision: c.lastDecision };
}

/** Ascending indexes as ranges: [1,2,3,5] -> "1-3,5". */
export function rangesOf(indexes: readonly number[]): string {
  const sorted = [...indexes].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    parts.push(j === i ? String(sorted[i]) : `${sorted[i]}-${sorted[j]}`);
    i = j + 1;
  }
  return parts.join(',');
}

/** "1-3,5" -> [1,2,3,5]; throws on anything else. */
export function indexesOf(ranges: string): number[] {
  if (ranges === '') return [];
  const out: number[] = [];
  for (const part of ranges.split(',')) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part);
    if (!m) throw new Error(`"${part}" is not an item range`);
    const from = Number(m[1]);
    const to = m[2] === undefined ? from : Number(m[2]);
    if (to < from) throw new Error(`"${part}" is not an item range`);
    for (let i = from; i <= to; i++) out.push(i);
  }
  return out;
}
