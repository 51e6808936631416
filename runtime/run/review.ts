/**
 * The SDD protocol's review rules, once, for both engines: which findings block, the
 * outcome label of a worker's handoff, the labels a run's journal shows per item, and what
 * the final whole-branch review comes to. Plain values, no I/O (the workflow script bundles
 * it, the Stop hook reads it).
 */

/** One review finding (the workflow's ReviewSchema finding; a session records the same fields). */
export interface ReviewFinding {
  severity: string;
  type: string;
  file: string;
  line: number;
  problem: string;
  fix: string;
  introduced: boolean;
}

/**
 * Finding types that make an introduced P1 blocking: a `defect` (it violates a spec, a
 * documented contract or stated behaviour), or one that fails an acceptance `scenario` or
 * `probe`. Every other type (hardening, refactor, test-gap, docs, design, …) is a
 * follow-up recorded at close, never a fix round (the SDD protocol's blocking rule).
 */
export const BLOCKING_P1_TYPES: readonly string[] = ['defect', 'scenario', 'probe'];

/** Blocking findings: every P0, and a P1 the change introduced whose type is a defect or a failed scenario/probe. */
export function blockingFindings<F extends ReviewFinding>(findings: readonly F[]): F[] {
  return findings.filter((f) => f.severity === 'P0' || (f.severity === 'P1' && f.introduced && BLOCKING_P1_TYPES.includes(f.type.trim().toLowerCase())));
}

/** One finding on one line, as prompts, evidence and the report state it. */
export const findingLine = (f: ReviewFinding) => `${f.severity} ${f.type} ${f.file}${f.line > 0 ? `:${f.line}` : ''}: ${f.problem} (fix: ${f.fix})`;

/**
 * The SDD protocol's outcome labels. DONE: completed with no concerns. DONE_WITH_CONCERNS:
 * completed, the worker named concerns (the item is done; its concerns go to the report).
 * NEEDS_CONTEXT: blocked on a question the worker cannot answer (the stop tokens
 * `needs-confirm`, `ambiguous`): the run gets it context (a persona settles the fork against
 * the charter) and hands it back, never a failure. BLOCKED: blocked for any other reason
 * (too-big, regressed, scope) or handed back partial: a failed attempt.
 */
export const OUTCOME_LABELS = ['DONE', 'DONE_WITH_CONCERNS', 'BLOCKED', 'NEEDS_CONTEXT'] as const;
export type OutcomeLabel = (typeof OUTCOME_LABELS)[number];

/** Stop tokens of a blocked handoff that ask for context (a persona settles them): NEEDS_CONTEXT. */
export const NEEDS_CONTEXT_TOKENS = /^\s*(needs-confirm|ambiguous)\b/i;

/** The label of a handoff: the one mapping of `status` (completed|partial|blocked), `blocked_reason` and `concerns`. */
export function handoffLabel(handoff: { status: string; blocked_reason?: string; concerns?: readonly string[] }): OutcomeLabel {
  if (handoff.status === 'completed') return concernsOf(handoff.concerns).length > 0 ? 'DONE_WITH_CONCERNS' : 'DONE';
  if (handoff.status === 'blocked' && NEEDS_CONTEXT_TOKENS.test(handoff.blocked_reason ?? '')) return 'NEEDS_CONTEXT';
  return 'BLOCKED';
}

/** Concerns as a clean list (blank ones dropped). */
export const concernsOf = (concerns: readonly unknown[] | undefined): string[] =>
  (concerns ?? []).filter((c): c is string => typeof c === 'string' && c.trim() !== '').map((c) => c.trim());

/** What the report shows for one item: its label and the concerns it was done with. */
export interface ItemOutcome {
  item: number;
  label: OutcomeLabel;
  concerns: string[];
}

const numberOf = (v: unknown) => (typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : NaN);

/**
 * Each item's label as a run's journal shows it, in item order: the last `outcome` event of
 * the item (the workflow writes one per handoff that is not a plain DONE, a session records
 * one when it is done with concerns); an item the run finished (`item-done`: the workflow's
 * scribe and the Stop hook log it) is DONE, or DONE_WITH_CONCERNS with the concerns it was
 * done with; a `failure` of kind `blocked` or `partial` is BLOCKED; an `escalation` (a fork
 * nobody could settle) or `needs-person` (only a person may answer) is NEEDS_CONTEXT.
 * Items with none of these (not worked on this run) are not shown.
 */
export function itemOutcomes(events: readonly Record<string, unknown>[]): ItemOutcome[] {
  const byItem = new Map<number, ItemOutcome>();
  // Concerns a handoff named, kept until the item is done (a done item keeps them whatever came between).
  const concerns = new Map<number, string[]>();
  for (const e of events) {
    const item = numberOf(e.item);
    if (!Number.isInteger(item) || item < 1) continue;
    if (e.event === 'outcome' && (OUTCOME_LABELS as readonly unknown[]).includes(e.label)) {
      const named = concernsOf(Array.isArray(e.concerns) ? e.concerns : []);
      if (named.length > 0) concerns.set(item, named);
      if (e.label === 'BLOCKED' || e.label === 'NEEDS_CONTEXT') byItem.set(item, { item, label: e.label, concerns: [] });
    } else if (e.event === 'escalation' || e.event === 'needs-person') {
      byItem.set(item, { item, label: 'NEEDS_CONTEXT', concerns: [] });
    } else if (e.event === 'failure' && (e.kind === 'blocked' || e.kind === 'partial')) {
      byItem.set(item, { item, label: 'BLOCKED', concerns: [] });
    } else if (e.event === 'item-done') {
      const named = concerns.get(item) ?? [];
      byItem.set(item, { item, label: named.length > 0 ? 'DONE_WITH_CONCERNS' : 'DONE', concerns: named });
    }
  }
  return [...byItem.values()].sort((a, b) => a.item - b.item);
}

/** `1 DONE, 2 DONE_WITH_CONCERNS (the cache is unbounded), 3 BLOCKED`. */
export function outcomesText(outcomes: readonly ItemOutcome[]): string {
  return outcomes.map((o) => `${o.item} ${o.label}${o.concerns.length > 0 ? ` (${o.concerns.join('; ')})` : ''}`).join(', ');
}

/** The label under which the final review's agent answers (answer files key agents by it). */
export const FINAL_REVIEW_LABEL = 'final:review';

/** The text of the one item the final review's blocking findings become (one fix dispatch for the whole list). */
export function finalFixText(blocking: readonly ReviewFinding[]): string {
  const text = `Fix the final review's blocking findings: ${blocking.map(findingLine).join('; ')}`;
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * What a final review comes to, in both engines: no blocking finding, the run completes
 * (every finding a follow-up); blocking ones and an item added to fix them, the run goes on
 * to do it; blocking ones and nothing added (the plan-change budget is spent, or the
 * amendment was refused), the run stops with `escalation` (the SDD protocol's circuit
 * breaker: ask the user). No answer at all is a stop too: a silent reviewer never passes.
 */
export function finalReviewDetail(blocking: readonly ReviewFinding[] | null): string {
  if (blocking === null) return 'the final review of the whole change gave no findings answer; a silent reviewer never passes';
  return `the final review of the whole change found ${blocking.length} blocking finding${blocking.length === 1 ? '' : 's'} and no item could be added to fix them (the plan-change budget is spent): ${blocking.map(findingLine).join('; ')}`;
}

/** What the end-of-run report shows from a run's journal: each item's label, and the final review's follow-ups. */
export interface ReviewReport {
  outcomes: ItemOutcome[];
  /** The final review's non-blocking findings, one line each. */
  followUps: string[];
}

/** The report's review facts from a run's journal (its events since `start`). */
export function reviewReport(events: readonly Record<string, unknown>[]): ReviewReport {
  const final = events.filter((e) => e.event === 'final-review').at(-1);
  const findings = (Array.isArray(final?.findings) ? final.findings : []).filter(
    (f): f is ReviewFinding => f !== null && typeof f === 'object' && typeof (f as ReviewFinding).severity === 'string' && typeof (f as ReviewFinding).problem === 'string',
  );
  const blocking = blockingFindings(findings);
  return { outcomes: itemOutcomes(events), followUps: findings.filter((f) => !blocking.includes(f)).map(findingLine) };
}
