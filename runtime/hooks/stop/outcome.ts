import { PERSON_REASONS, type PersonReason } from '../../decisions/forks.js';
import type { PlanItem } from '../../plan/schema.js';
import type { RunEvent } from '../../run/index.js';
import { signalStrings } from '../../run/index.js';
import { toolEvidence, verdictEvidence } from '../../run/index.js';
import { blockingFindings, finalReviewDetail, type ReviewFinding } from '../../run/index.js';

/** One line of `.leopold/events.jsonl` as the hook reads it. */
export type LoggedEvent = Record<string, unknown> & { event?: unknown; item?: unknown };

const numberOf = (v: unknown) => (typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : NaN);

/**
 * What the session reported about the item it was handed, as run-model events (the ones
 * the workflow derives from its agents' answers): read from PLAN.md (the item's checkbox)
 * and the events recorded since the dispatch, in the vocabulary the workflow's scribe
 * writes: `failure` (kind), `item-open`, `gate` / `verify` (verdict), `tool` (exit),
 * `signals` (the values it chose for the item's `@emit` keys), `needs-person` (only a person may settle it: the run stops), `escalation` (a fork nobody could settle; `leopold record` writes one itself when it
 * refuses an irreversible decision on a silent charter) and `no-approach` (the rescue found
 * none). A ticked checkbox is acceptance; nothing reported means the item is still open
 * (the same item again).
 */
export function reportedEvents(item: PlanItem, events: readonly LoggedEvent[]): RunEvent[] {
  const n = item.index;
  const mine = events.filter((e) => numberOf(e.item) === n);
  const named = (name: string) => mine.filter((e) => e.event === name);
  const out: RunEvent[] = [];
  if (item.kind === 'work') {
    for (const e of named('failure')) {
      out.push({
        type: 'failed',
        item: n,
        kind: typeof e.kind === 'string' && e.kind.trim() !== '' ? e.kind.trim() : 'implementer',
        ...(typeof e.evidence === 'string' ? { evidence: e.evidence } : {}),
      });
    }
  }
  // Subagents the session started for the item (the guard logs one `subagent` per Task/Agent call it let through).
  const spawned = named('subagent').length;
  if (spawned > 0) out.push({ type: 'subagents', item: n, count: spawned });
  // A subagent refused at the cap stops the run (subagent_cap), whatever else the turn reported.
  const capped = named('subagent-cap').at(-1);
  if (capped !== undefined) return [...out, { type: 'subagent-cap', item: n, detail: typeof capped.detail === 'string' ? capped.detail : 'a subagent was refused at the cap' }];
  // What only a person may decide, a fork nobody could settle, or a rescue with no approach
  // outweighs anything else the turn reported, a tick included.
  const person = named('needs-person').at(-1);
  if (person !== undefined) {
    const reason = (PERSON_REASONS as readonly unknown[]).includes(person.reason) ? (person.reason as PersonReason) : 'premise';
    const question = typeof person.question === 'string' && person.question.trim() !== '' ? person.question.trim() : 'no question given';
    return [...out, { type: 'needs-person', item: n, reason, question }];
  }
  const escalation = named('escalation').at(-1);
  if (escalation !== undefined) {
    const question = typeof escalation.question === 'string' && escalation.question.trim() !== '' ? escalation.question.trim() : 'no question given';
    return [...out, { type: 'escalated', item: n, question }];
  }
  if (named('no-approach').length > 0) return [...out, { type: 'no-approach', item: n }];
  // The values the session reported for the item's `@emit` keys (its last `signals` event).
  const reported = signalStrings(named('signals').at(-1)?.values, true);
  const finished = (status: string, signals: Record<string, string> | undefined = reported, evidence?: string): RunEvent => ({
    type: 'finished',
    outcome: { index: n, status, ...(signals ? { signals } : {}) },
    ...(evidence !== undefined ? { evidence } : {}),
  });
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  switch (item.kind) {
    case 'work': {
      if (item.done) return [...out, { type: 'succeeded', item: n }, finished('ok')];
      const open = named('item-open').at(-1);
      if (open !== undefined) return [...out, finished('fail', reported, `left open: ${text(open.reason) || 'no reason given'}`)];
      return out;
    }
    case 'gate':
    case 'verify': {
      const last = [...named('gate'), ...named('verify')].at(-1);
      const verdict = last?.verdict;
      if (verdict === 'pass') return [finished('pass')];
      if (verdict === 'fail') return [finished('fail', reported, verdictEvidence(`@${item.kind}`, text(last!.reasons)))];
      return item.done ? [finished('pass')] : [];
    }
    case 'tool': {
      const last = named('tool').at(-1);
      const exit = numberOf(last?.exit);
      if (Number.isInteger(exit)) {
        const evidence = exit === 0 ? undefined : toolEvidence(item.command ?? item.text, exit, text(last!.output));
        return [finished(exit === 0 ? 'ok' : 'fail', { ...reported, exit: String(exit) }, evidence)];
      }
      return item.done ? [finished('ok', { ...reported, exit: '0' })] : [];
    }
    case 'human':
    case 'feedback':
      return item.done ? [finished('ok')] : [];
  }
}

/**
 * What the session's final review comes to (the workflow's finalReview, from the session's
 * reports): its last `final-review` event's findings, through the kernel's blocking rule.
 * Blocking findings with an item added since (`leopold plan amend` grew the plan past
 * `count` items) go on to that item; blocking ones with none added, or no `final-review`
 * event at all, are the model's `final-blocked` (the run stops with escalation).
 */
export function finalReviewEvents(items: readonly PlanItem[], events: readonly LoggedEvent[], last: number, count: number): RunEvent[] {
  const reported = events.filter((e) => e.event === 'final-review').at(-1);
  if (reported === undefined) return [{ type: 'final-blocked', item: last, detail: finalReviewDetail(null) }];
  const findings = (Array.isArray(reported.findings) ? reported.findings : []).filter(isFinding);
  const blocking = blockingFindings(findings);
  if (blocking.length === 0 || items.length > count) return [];
  return [{ type: 'final-blocked', item: last, detail: finalReviewDetail(blocking) }];
}

const isFinding = (f: unknown): f is ReviewFinding => {
  if (f === null || typeof f !== 'object') return false;
  const r = f as Record<string, unknown>;
  return typeof r.severity === 'string' && typeof r.type === 'string' && typeof r.file === 'string' && typeof r.problem === 'string' && typeof r.introduced === 'boolean';
};
