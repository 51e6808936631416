import type { RunModel, TakenRoute } from '../run/model.js';
import { isSuccess } from '../routing/facts.js';
import type { EmbeddedNode, EmbeddedPlan } from './plan.js';
import type { ItemMemory } from './work-item.js';

/**
 * What a workflow run that ended at `run_budget` hands the next launch of the same script
 * (docs/workflow.md, "Runs that continue"): the run model whole (iterations, failures and the
 * streak, no-progress count, the rescue spent or pending, plan changes spent, routing
 * memory), the items earlier launches appended, the failure evidence of open items and the
 * last decision number. The script cannot read files, and the lock keeps
 * `.claude/workflows/` read-only, so the next launch runs the same script and this object
 * is its `args.continue`: the skill passes the previous result's `continue` verbatim.
 *
 * Compact and plain JSON: statuses are grouped by status as index ranges (`"1-240,245"`),
 * empty signal records are left out, and no array is longer than the plan's routes or the
 * three items an amendment budget can add (the host refuses args arrays past 4,096).
 */
export interface Continuation {
  /** The SHA-256 of the PLAN.md the script embeds: a continuation is for this compile only. */
  plan: string;
  /** The launch this continuation starts (2 for the first relaunch). */
  launch: number;
  iteration: number;
  failures: Record<string, number>;
  streak: { kind: string | null; count: number };
  noProgress: number;
  lastDone: number;
  rescueUsed: boolean;
  rescueFor: { kind: string; failures: number } | null;
  amendmentsUsed: number;
  /** Deadlock repairs tried (the run asks one). */
  deadlockRepairs: number;
  /** Status -> the items that finished with it, as ranges. */
  statuses: Record<string, string>;
  /** Item -> the signals it sent, for items that sent any. */
  signals: Record<string, Record<string, string>>;
  channel: Record<string, string>;
  taken: TakenRoute[];
  /** Item -> why it last failed (the run model's evidence). */
  evidence: Record<string, string>;
  /** Work items earlier launches appended (a @feedback node's accepted changes). */
  added: EmbeddedNode[];
  /** Open items' failure evidence, for their next attempt's prompt and the rescue. */
  memory: Record<string, ItemMemory>;
  /** The highest decision number the run's scribe acknowledged. */
  lastDecision: number;
}

/** The continuation of a run stopped at `run_budget`. */
export function continuationOf(
  plan: EmbeddedPlan,
  launch: number,
  model: RunModel,
  added: readonly EmbeddedNode[],
  memory: ReadonlyMap<number, ItemMemory>,
  lastDecision: number,
): Continuation {
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
  const open: Record<string, ItemMemory> = {};
  for (const [index, mine] of [...memory].sort((a, b) => a[0] - b[0])) {
    if (mine.evidence.length > 0 && !isSuccess(model.routing.statuses[String(index)])) open[String(index)] = { evidence: [...mine.evidence] };
  }
  return {
    plan: plan.source.sha256,
    launch: launch + 1,
    iteration: model.iteration,
    failures: { ...model.failures },
    streak: { ...model.consecutive_failures },
    noProgress: model.no_progress,
    lastDone: model.last_done,
    rescueUsed: model.rescue_used,
    rescueFor: model.rescue_for ? { ...model.rescue_for } : null,
    amendmentsUsed: model.amendments_used,
    deadlockRepairs: model.deadlock_repairs,
    statuses,
    signals,
    channel: { ...model.routing.channel },
    taken: model.routing.taken.map((route) => ({ ...route })),
    evidence: { ...model.evidence },
    added: added.map((node) => ({ ...node })),
    memory: open,
    lastDecision,
  };
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
  if (typeof c !== 'object' || c === null || Array.isArray(c)) throw bad('not an object');
  if (c.plan !== embedded.source.sha256) throw bad('it belongs to another compile of PLAN.md');
  for (const field of ['launch', 'iteration', 'noProgress', 'lastDone', 'amendmentsUsed', 'deadlockRepairs', 'lastDecision'] as const) {
    if (!Number.isInteger(c[field]) || c[field] < 0) throw bad(`${field} is not a whole number`);
  }
  if (typeof c.rescueUsed !== 'boolean') throw bad('rescueUsed is not a boolean');
  for (const field of ['failures', 'statuses', 'signals', 'channel', 'memory', 'evidence'] as const) {
    if (typeof c[field] !== 'object' || c[field] === null || Array.isArray(c[field])) throw bad(`${field} is not an object`);
  }
  if (!Array.isArray(c.taken) || !Array.isArray(c.added)) throw bad('taken or added is not a list');
  if (typeof c.streak !== 'object' || c.streak === null) throw bad('streak is not an object');

  const statuses: Record<string, string> = {};
  for (const [status, ranges] of Object.entries(c.statuses)) {
    if (typeof ranges !== 'string') throw bad(`the items of status ${status} are not ranges`);
    for (const index of indexesOf(ranges)) statuses[String(index)] = status;
  }
  const signals: Record<string, Record<string, string>> = {};
  for (const index of Object.keys(statuses)) signals[index] = { ...(c.signals[index] ?? {}) };
  const items = [...embedded.items, ...c.added].map((node) => (isSuccess(statuses[String(node.index)]) && !node.done ? { ...node, done: true } : node));
  const plan: EmbeddedPlan = {
    ...embedded,
    items,
    waves: [...embedded.waves.map((wave) => [...wave]), ...(c.added.length > 0 ? [c.added.map((node) => node.index)] : [])],
  };
  const model: RunModel = {
    iteration: c.iteration,
    failures: { ...c.failures },
    consecutive_failures: { kind: c.streak.kind, count: c.streak.count },
    no_progress: c.noProgress,
    last_done: c.lastDone,
    rescue_used: c.rescueUsed,
    rescue_for: c.rescueFor ? { ...c.rescueFor } : null,
    amendments_used: c.amendmentsUsed,
    deadlock_repairs: c.deadlockRepairs,
    routing: { statuses, signals, channel: { ...c.channel }, taken: c.taken.map((route) => ({ ...route })) },
    evidence: { ...c.evidence },
    halt: null,
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
