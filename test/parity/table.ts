// THE parity table: one list of cases, each run through both engines (test/parity/drivers.ts)
// and, where it applies, through the real client (test/conformance/parity.conformance.test.ts).
// A case gives a plan, GUARDRAILS and what happens at each attempt of each item; both
// engines must dispatch the same items in the same order, stop for the same reason at the
// same iteration and write byte-identical DECISIONS.md entries (timestamps aside).

import { readFileSync } from 'node:fs';

/** A fork's answer: the persona's role and what it decided. */
export interface Fork {
  role: string;
  title: string;
  /** The CHARTER rule that decided it, verbatim, or `silent`. */
  charter: string;
  irreversible?: boolean;
}

/** A decision made inside an item: a full entry, or a mechanical one-liner. */
export type Decided =
  | { title: string; class: 'reversible' | 'irreversible'; charter: string; decision: string; why: string; reversal: string }
  | { title: string; decision: string; mechanical: true };

/** What one attempt at an item does (one dispatch). */
export type Attempt =
  /** Accepted; `decisions`: what the worker decided inside the item (the session records them, the implementer's handoff carries them). */
  | { ok: true; decisions?: Decided[]; concerns?: string[] }
  /** A failed attempt of a work item: its kind (`implementer`: the implementer died in every round). */
  | { fail: 'verification' | 'partial' | 'blocked' | 'implementer' }
  /** A @gate or @verify verdict. */
  | { gate: 'pass' | 'fail' }
  /** A @gate whose judge gave no answer, twice: a fail, never a pass. */
  | { deadJudge: true }
  /** A @tool's exit code, and the end of its output. */
  | { exit: number; output?: string }
  /** A @human node decided by a persona. */
  | { human: Fork }
  /** A @human node whose answer decides nothing. */
  | { unsettled: true }
  /** A needs-confirm blocker a persona settles against the charter; the item then passes. */
  | { escalate: Fork }
  /** A needs-confirm blocker whose answer decides nothing. */
  | { escalateUnsettled: true }
  /** Only a person may settle this (the stop channel): the worker says why and asks; no persona is asked. */
  | { needsPerson: 'gated' | 'premise' | 'charter-contradiction' | 'never-rule'; question: string }
  /** The review round cap: a P0 finding in every round; a ruling is recorded and the item stays open. */
  | { leftOpen: true }
  /** A @feedback node that proposes nothing. */
  | { feedback: true }
  /**
   * Done means verified: the session records a passing verification, then edits a file, and
   * its tick is refused until it verifies again; the workflow verifies after every edit and
   * its checkers cannot edit (both record the receipt before the tick).
   */
  | { editAfterVerify: true };

export interface Case {
  name: string;
  plan: string;
  guardrails?: string;
  /** Item index -> its attempts in order (the last repeats); unlisted items pass. */
  attempts?: Record<number, Attempt[]>;
  /**
   * Item index -> the values its node reports for its `@emit` keys when it finishes (the
   * workflow's agent answers them in `signals`, the session records a `signals` event from
   * the block reason's template); an item not listed reports none (its first declared values).
   */
  signals?: Record<number, Record<string, string>>;
  /**
   * Item index -> the rescue's persona and approach ('' : it found none). `silent`: the
   * session says nothing about an approach at all and just tries again (the workflow's
   * rescue persona answers none).
   */
  rescue?: Record<number, { role: string; approach: string; silent?: boolean }>;
  expected: {
    dispatched: number[];
    stop: string;
    /** Iterations used when the run stopped (default: the number of dispatches). */
    iteration?: number;
    /** DECISIONS.md entries both engines write (default 0). */
    entries?: number;
    /** The report's outcome labels (outcomesText), the same in both engines; checked when given. */
    outcomes?: string;
    /** The final review's follow-ups in the report; checked when given. */
    followUps?: number;
  };
  /**
   * The session starts a subagent (an Agent call through the guard) for each agent the
   * workflow's attempt makes (implement, verify, review: 3 for an accepted attempt), and
   * stops starting them at the guard's first refusal, leaving the item as it is.
   */
  subagents?: true;
  /**
   * What the run's one final review of the whole change finds (default: nothing): a
   * `blocking` finding (a P0) becomes one fix item, a `follow-up` (a P2) goes to the report.
   */
  final?: ('blocking' | 'follow-up')[];
  /** Raise the kill switch in the session after this many turns: the one stop the script cannot see. */
  killAfterTurns?: number;
  /** The divergence of issue #12 this case failed on before the run model was shared. */
  failedBefore?: string;
}

const licence = (over: Partial<Fork> = {}): Fork => ({ role: 'Open Source Licensing Counsel', title: 'Pick the MIT licence', charter: 'silent', ...over });
const cutover = (over: Partial<Fork> = {}): Fork => ({ role: 'Release Engineer', title: 'Drop the legacy table', charter: 'silent', irreversible: true, ...over });
const schema = (over: Partial<Fork> = {}): Fork => ({ role: 'Data Modelling Lead', title: 'Store counts as integers', charter: 'silent', ...over });
const RESCUE = { role: 'Build Engineer', approach: 'Split the word counter into a tokenizer and a counter' };
const fails = (kind: 'verification' | 'partial' | 'blocked' | 'implementer', n: number): Attempt[] => Array.from({ length: n }, () => ({ fail: kind }));

export const ROUTED = [
  '- [ ] Build it {#build}',
  '- [ ] (after: #build) @tool `npm test` {#test}',
  '  @on exit!=0 -> #fix',
  '  @on exit=0 -> #review',
  '- [ ] Fix what the tests found {#fix}',
  '  @on ok -> #review',
  '- [ ] @gate Review it {#review}',
  '  @on fail -> #rework',
  '  @on pass -> #ship',
  '- [ ] Ship it {#ship}',
  '- [ ] Rework what review rejected {#rework}',
  '',
].join('\n');

// The original Leopold's two-branch plan and its plan-grammar worked example, as
// re-created in fixtures/corpus/plans/ (our words, the same structure).
const BRANCH = readFileSync('fixtures/corpus/plans/branch.md', 'utf8');
const WORKED_EXAMPLE = readFileSync('fixtures/corpus/plans/grammar-worked-example.md', 'utf8');

export const CASES: Case[] = [
  // --- the SDD review loop: outcome labels, the final review of the whole change
  {
    name: 'outcome labels: an item done with concerns is done, its concerns reach the report; a blocked attempt is BLOCKED',
    plan: '- [ ] Count words {#count}\n- [ ] Add --json\n- [ ] Write the README\n',
    attempts: { 1: [{ ok: true, concerns: ['the tokenizer splits on ASCII spaces only'] }], 3: [{ fail: 'blocked' }, { fail: 'blocked' }, { fail: 'blocked' }] },
    rescue: { 3: { role: 'Technical Writer', approach: '' } },
    expected: { dispatched: [1, 2, 3, 3, 3, 3], stop: 'repeated_failure', outcomes: '1 DONE_WITH_CONCERNS (the tokenizer splits on ASCII spaces only), 2 DONE, 3 BLOCKED' },
  },
  {
    name: 'the final review finds only follow-ups: they go to the report and the run completes',
    plan: '- [ ] Count words\n- [ ] Add --json\n',
    final: ['follow-up'],
    expected: { dispatched: [1, 2], stop: 'plan_complete', outcomes: '1 DONE, 2 DONE', followUps: 1 },
  },
  {
    name: 'the final review finds a blocking finding: it becomes one fix item, which runs, then the run completes (one final review per run)',
    plan: '- [ ] Count words\n- [ ] Add --json\n',
    final: ['blocking', 'follow-up'],
    expected: { dispatched: [1, 2, 3], stop: 'plan_complete', outcomes: '1 DONE, 2 DONE, 3 DONE', followUps: 1 },
  },
  // --- plain checklists: scheduling, failures, budgets
  {
    name: 'a plain checklist, one verification failure recovered',
    plan: '# Plan\n\n- [x] Set up\n- [ ] Count words {#count}\n- [ ] (after: #count) Add --json\n- [ ] Write the README\n',
    attempts: { 2: [{ fail: 'verification' }, { ok: true }] },
    expected: { dispatched: [2, 2, 4, 3], stop: 'plan_complete' },
  },
  {
    name: 'a plain checklist in plan order when nothing depends on anything',
    plan: '- [ ] One\n- [ ] Two\n- [ ] Three\n',
    expected: { dispatched: [1, 2, 3], stop: 'plan_complete' },
  },
  {
    name: 'done items are never dispatched',
    plan: '- [x] One\n- [ ] Two\n- [x] Three\n- [ ] Four\n',
    expected: { dispatched: [2, 4], stop: 'plan_complete' },
  },
  {
    name: 'each failure kind is retried: partial, blocked, a dead implementer',
    plan: '- [ ] Count words\n- [ ] Count lines\n- [ ] Count bytes\n',
    attempts: { 1: [{ fail: 'partial' }, { ok: true }], 2: [{ fail: 'blocked' }, { ok: true }], 3: [{ fail: 'implementer' }, { ok: true }] },
    expected: { dispatched: [1, 1, 2, 2, 3, 3], stop: 'plan_complete' },
  },
  {
    name: 'the review cap leaves an item open: only what depends on it is blocked',
    plan: '- [ ] Count words {#count}\n- [ ] (after: #count) Add --json\n- [ ] Write the README\n',
    attempts: { 1: [{ leftOpen: true }] },
    expected: { dispatched: [1, 3], stop: 'routed_complete', entries: 1 },
  },
  {
    name: 'the review cap in wave 1 strands only its dependents in wave 2',
    plan: '- [ ] Count words {#count}\n- [ ] Count lines {#lines}\n- [ ] (after: #count) Add --json\n- [ ] (after: #lines) Add --csv\n',
    attempts: { 2: [{ leftOpen: true }] },
    expected: { dispatched: [1, 2, 3], stop: 'routed_complete', entries: 1 },
    failedBefore: 'stranded work: the wave loop stranded all of wave 2, item 3 too, whose dependency was done',
  },
  {
    name: 'the review cap on a chain: the whole chain is blocked, the rest runs',
    plan: '- [ ] Parse the flags {#flags}\n- [ ] (after: #flags) Add --json {#json}\n- [ ] (after: #json) Add --csv\n- [ ] Write the README\n- [ ] Add a man page\n',
    attempts: { 1: [{ leftOpen: true }] },
    expected: { dispatched: [1, 4, 5], stop: 'routed_complete', entries: 1 },
  },
  {
    name: 'the review cap on an item nothing depends on',
    plan: '- [ ] Count words\n- [ ] Count lines\n',
    attempts: { 2: [{ leftOpen: true }] },
    expected: { dispatched: [1, 2], stop: 'routed_complete', entries: 1 },
  },
  {
    name: 'the iteration budget stops work that is left',
    plan: '- [ ] One\n- [ ] Two\n- [ ] Three\n',
    guardrails: '- max_iterations: 2\n',
    expected: { dispatched: [1, 2], stop: 'iteration_budget' },
  },
  {
    name: 'GUARDRAILS as the documents write it: a list item with a trailing comment sets the iteration cap',
    plan: '- [ ] One\n- [ ] Two\n- [ ] Three\n',
    guardrails: '# Guardrails\n\n## Limits\n- max_iterations: 2   # cap\n',
    expected: { dispatched: [1, 2], stop: 'iteration_budget' },
    failedBefore: 'issue 27: the trailing comment made the value unreadable; both engines ran all three items under the default cap of 50',
  },
  {
    name: 'the last item done on the last iteration is plan_complete, not iteration_budget',
    plan: '- [ ] One\n- [ ] Two\n- [ ] Three\n',
    guardrails: '- max_iterations: 3\n',
    expected: { dispatched: [1, 2, 3], stop: 'plan_complete' },
    failedBefore: 'budget-vs-complete ordering: the Stop hook said iteration_budget, the workflow plan_complete',
  },
  {
    name: 'the iteration budget counts retries',
    plan: '- [ ] One\n- [ ] Two\n',
    guardrails: '- max_iterations: 3\n',
    attempts: { 1: [{ fail: 'verification' }, { fail: 'partial' }, { ok: true }] },
    expected: { dispatched: [1, 1, 1], stop: 'iteration_budget' },
  },
  {
    name: 'no progress: failures of alternating kinds never reach the ceiling, the no-progress limit stops them',
    plan: '- [ ] One\n- [ ] Two\n',
    guardrails: '- max_no_progress: 4\n',
    attempts: { 1: Array.from({ length: 8 }, (_, k): Attempt => ({ fail: k % 2 === 0 ? 'verification' : 'partial' })) },
    expected: { dispatched: [1, 1, 1, 1], stop: 'no_progress' },
    failedBefore: 'the workflow had no no-progress stop: it made 11 attempts and ended repeated_failure',
  },
  {
    name: 'progress resets the no-progress count',
    plan: '- [ ] One\n- [ ] Two\n- [ ] Three\n',
    guardrails: '- max_no_progress: 3\n',
    attempts: { 1: [{ fail: 'verification' }, { ok: true }], 2: [{ fail: 'partial' }, { ok: true }] },
    expected: { dispatched: [1, 1, 2, 2, 3], stop: 'plan_complete' },
  },

  // --- the failure ceiling and the one rescue
  {
    name: 'the failure ceiling under ask (rescues off)',
    plan: '- [ ] One\n- [ ] Two\n',
    guardrails: '- autonomy: ask\n- max_failures: 2\n',
    attempts: { 1: [{ fail: 'verification' }] },
    expected: { dispatched: [1, 1], stop: 'repeated_failure' },
  },
  {
    name: 'the rescue unspent: three failures, the rescue, then success',
    plan: '- [ ] Count words\n- [ ] Write the README\n',
    attempts: { 1: [...fails('verification', 3), { ok: true }] },
    rescue: { 1: RESCUE },
    expected: { dispatched: [1, 1, 1, 1, 2], stop: 'plan_complete', entries: 1 },
    failedBefore: 'the rescue entry was turn 3 in the workflow and turn 4 in the Stop hook',
  },
  {
    name: 'the rescue spent: the next item to fail three times stops at the third attempt',
    plan: '- [ ] Count words\n- [ ] Count lines\n',
    attempts: { 1: [...fails('verification', 3), { ok: true }], 2: fails('verification', 5) },
    rescue: { 1: RESCUE },
    expected: { dispatched: [1, 1, 1, 1, 2, 2, 2], stop: 'repeated_failure', entries: 1 },
    failedBefore: 'a silent fourth attempt: the workflow kept the spent rescue hold and gave item 2 four attempts',
  },
  {
    name: 'the rescue finds no approach: repeated_failure at once',
    plan: '- [ ] Count words\n- [ ] Write the README\n',
    attempts: { 1: fails('verification', 3) },
    rescue: { 1: { role: 'Build Engineer', approach: '' } },
    expected: { dispatched: [1, 1, 1, 1], stop: 'repeated_failure' },
    failedBefore: 'the Stop hook gave the session no way to report it: it handed the item out again as an ordinary attempt (5 dispatches; the workflow stopped at 3 iterations)',
  },
  {
    name: 'a rescue turn that records no approach is the rescue finding none: repeated_failure, not a spent rescue drifting into no_progress',
    plan: '- [ ] Count words\n- [ ] Write the README\n',
    attempts: { 1: fails('verification', 4) },
    rescue: { 1: { role: 'Build Engineer', approach: '', silent: true } },
    expected: { dispatched: [1, 1, 1, 1], stop: 'repeated_failure' },
    failedBefore: 'issue 27: the session engine granted the rescue to a turn that recorded no approach',
  },
  {
    name: 'the rescued attempt fails too: repeated_failure',
    plan: '- [ ] Count words\n- [ ] Write the README\n',
    attempts: { 1: fails('verification', 5) },
    rescue: { 1: RESCUE },
    expected: { dispatched: [1, 1, 1, 1], stop: 'repeated_failure', entries: 1 },
    failedBefore: 'the rescue entry was turn 3 in the workflow and turn 4 in the Stop hook',
  },
  {
    name: 'the rescue resumed: after a rescued success, other items run as usual',
    plan: '- [ ] Count words\n- [ ] Count lines\n- [ ] Count bytes\n',
    attempts: { 1: [...fails('partial', 3), { ok: true }], 2: [{ fail: 'verification' }, { ok: true }] },
    rescue: { 1: RESCUE },
    expected: { dispatched: [1, 1, 1, 1, 2, 2, 3], stop: 'plan_complete', entries: 1 },
  },
  {
    name: 'a streak of another kind after the rescue stops at the ceiling',
    plan: '- [ ] Count words\n- [ ] Count lines\n',
    attempts: { 1: [...fails('verification', 3), { ok: true }], 2: fails('partial', 5) },
    rescue: { 1: RESCUE },
    expected: { dispatched: [1, 1, 1, 1, 2, 2, 2], stop: 'repeated_failure', entries: 1 },
  },
  {
    name: 'max_failures 1: the first failure buys the rescue',
    plan: '- [ ] Count words\n',
    guardrails: '- max_failures: 1\n',
    attempts: { 1: [{ fail: 'blocked' }, { ok: true }] },
    rescue: { 1: RESCUE },
    expected: { dispatched: [1, 1], stop: 'plan_complete', entries: 1 },
    failedBefore: 'the rescue entry was turn 1 in the workflow and turn 2 in the Stop hook',
  },
  {
    name: 'failures of different kinds restart the streak',
    plan: '- [ ] Count words\n',
    attempts: { 1: [{ fail: 'verification' }, { fail: 'verification' }, { fail: 'partial' }, { fail: 'partial' }, { ok: true }] },
    expected: { dispatched: [1, 1, 1, 1, 1], stop: 'plan_complete' },
  },
  {
    name: 'the iteration budget lands on the rescue dispatch: no rescue is bought',
    plan: '- [ ] Count words\n',
    guardrails: '- max_iterations: 3\n',
    attempts: { 1: fails('verification', 5) },
    rescue: { 1: RESCUE },
    expected: { dispatched: [1, 1, 1], stop: 'iteration_budget' },
    failedBefore: 'the workflow bought the rescue and recorded its entry before finding the budget spent; the Stop hook bought none',
  },

  // --- @human and escalations: every fork
  {
    name: 'a @human node under full: a persona decides, the entry is written',
    plan: '- [ ] Write the code\n- [ ] @human Pick the licence\n- [ ] Publish the docs\n',
    attempts: { 2: [{ human: licence() }] },
    expected: { dispatched: [1, 2, 3], stop: 'plan_complete', entries: 1 },
  },
  {
    name: 'a @human node whose persona is generic: written as no role synthesized',
    plan: '- [ ] @human Pick the licence\n',
    attempts: { 1: [{ human: licence({ role: 'An Assistant', title: 'Pick Apache-2.0', charter: 'Never add a runtime dependency.' }) }] },
    expected: { dispatched: [1], stop: 'plan_complete', entries: 1 },
  },
  {
    name: 'a @human node whose answer decides nothing: escalation, and no entry is written',
    plan: '- [ ] Write the code\n- [ ] @human Approve the production cutover\n- [ ] Publish the docs\n',
    attempts: { 2: [{ unsettled: true }] },
    expected: { dispatched: [1, 2], stop: 'escalation' },
  },
  {
    name: 'a @human node decided irreversibly on a silent charter: stop and ask (escalation)',
    plan: '- [ ] Write the code\n- [ ] @human Approve the production cutover\n- [ ] Publish the docs\n',
    attempts: { 2: [{ human: cutover() }] },
    expected: { dispatched: [1, 2], stop: 'escalation' },
    failedBefore: 'the Stop hook could not stop and ask: it re-blocked the item six more times and ended no_progress',
  },
  {
    name: 'a @human node decided irreversibly under a charter rule that covers it: recorded, the run goes on',
    plan: '- [ ] @human Approve the production cutover\n- [ ] Publish the docs\n',
    attempts: { 1: [{ human: cutover({ charter: 'Never add a runtime dependency.' }) }] },
    expected: { dispatched: [1, 2], stop: 'plan_complete', entries: 1 },
  },
  {
    name: 'a @human node under ask: awaiting_human',
    plan: '- [ ] Write the code\n- [ ] @human Pick the licence\n- [ ] Publish the docs\n',
    guardrails: '- autonomy: halt\n',
    expected: { dispatched: [1], stop: 'awaiting_human' },
  },
  {
    name: 'GUARDRAILS as the documents write it: `- autonomy: ask   # strict` under a heading stops at the @human node',
    plan: '- [ ] Write the code\n- [ ] @human Pick the licence\n- [ ] Publish the docs\n',
    guardrails: '# Guardrails\n\n## Judgment posture\n- autonomy: ask   # strict\n',
    expected: { dispatched: [1], stop: 'awaiting_human' },
    failedBefore: 'issue 27: the trailing comment made the posture unreadable, so it stayed full and a persona decided the @human node',
  },
  {
    name: 'a @human node first under ask: nothing is dispatched',
    plan: '- [ ] @human Pick the licence\n- [ ] Publish the docs\n',
    guardrails: '- autonomy: ask\n',
    expected: { dispatched: [], stop: 'awaiting_human' },
  },
  {
    name: 'two @human nodes under full: two entries, in order',
    plan: '- [ ] @human Pick the licence\n- [ ] @human Pick the data format\n',
    attempts: { 1: [{ human: licence() }], 2: [{ human: schema({ title: 'Store counts as JSON' }) }] },
    expected: { dispatched: [1, 2], stop: 'plan_complete', entries: 2 },
  },
  {
    name: 'an escalation settled by a persona: the entry has its Persona and Fork, the item goes on',
    plan: '- [ ] Count words\n- [ ] Write the README\n',
    attempts: { 1: [{ escalate: schema() }] },
    expected: { dispatched: [1, 2], stop: 'plan_complete', entries: 1 },
    failedBefore: "the Stop hook's instructions never named the escalation fork: the entry said Fork: none with no Persona line",
  },
  // --- the stop channel (issue #27): what only a person may settle stops, in either autonomy
  {
    name: 'a premise found false stops with escalation under full: no persona settles it, no entry',
    plan: '- [ ] Count words\n- [ ] Write the README\n',
    attempts: { 1: [{ needsPerson: 'premise', question: 'the mission says count words, but the users need characters; which?' }] },
    expected: { dispatched: [1], stop: 'escalation' },
  },
  {
    name: 'work the worker finds gated stops awaiting_human under full',
    plan: '- [ ] Count words\n- [ ] Write the README\n',
    attempts: { 1: [{ needsPerson: 'gated', question: 'this rotates the production API key; GUARDRAILS says a person does that' }] },
    expected: { dispatched: [1], stop: 'awaiting_human' },
  },
  {
    name: 'an item GUARDRAILS.md gates (`- gated: billing, {#deploy}   # people only`) stops the run before it, under full',
    plan: '- [ ] Count words\n- [ ] Wire the Stripe billing webhook\n- [ ] Write the README\n',
    guardrails: '# Guardrails\n- gated: billing, {#deploy}   # people only\n',
    expected: { dispatched: [1], stop: 'awaiting_human' },
    failedBefore: 'issue 27: GUARDRAILS had no way to gate work, and a persona settled what the documents say always stops',
  },
  {
    name: 'an escalation nobody can settle: escalation, no entry',
    plan: '- [ ] Count words\n- [ ] Write the README\n',
    attempts: { 1: [{ escalateUnsettled: true }] },
    expected: { dispatched: [1], stop: 'escalation' },
  },
  {
    name: 'an escalation decided irreversibly on a silent charter: stop and ask',
    plan: '- [ ] Count words\n- [ ] Write the README\n',
    attempts: { 1: [{ escalate: cutover() }] },
    expected: { dispatched: [1], stop: 'escalation' },
    failedBefore: 'the Stop hook could not stop and ask at an escalation either: five more blocks, then no_progress',
  },
  {
    name: 'an escalation settled, then a failure and a retry',
    plan: '- [ ] Count words\n',
    attempts: { 1: [{ escalate: schema() }, { ok: true }] },
    expected: { dispatched: [1], stop: 'plan_complete', entries: 1 },
  },
  {
    name: 'a generic persona at an escalation: written as no role synthesized',
    plan: '- [ ] Count words\n',
    attempts: { 1: [{ escalate: schema({ role: 'Software Engineer' }) }] },
    expected: { dispatched: [1], stop: 'plan_complete', entries: 1 },
    failedBefore: 'the Stop hook wrote Fork: none with no Persona line',
  },

  {
    name: 'decisions made inside an item are kept by both engines: a full entry and a mechanical one',
    plan: '- [ ] Count words {#count}\n- [ ] Write the README\n',
    attempts: {
      1: [
        {
          ok: true,
          decisions: [
            { title: 'Count hyphenated words as one', class: 'reversible', charter: 'silent', decision: 'Split on whitespace only', why: 'matches wc', reversal: 'Split on hyphens too.' },
            { title: 'Ran the formatter', decision: 'prettier --write src/', mechanical: true },
          ],
        },
      ],
    },
    expected: { dispatched: [1, 2], stop: 'plan_complete', entries: 2 },
    failedBefore: 'issue #24: the workflow had no field for decisions made inside an item and kept none of them',
  },

  // --- routed plans: every node kind, branches, routed around
  {
    name: 'a routed plan taking the fail branch (@tool exit 1, @gate fail)',
    plan: ROUTED,
    attempts: { 2: [{ exit: 1 }], 4: [{ gate: 'fail' }] },
    expected: { dispatched: [1, 2, 3, 4, 6], stop: 'routed_complete' },
  },
  {
    name: 'a routed plan taking the pass branch (@tool exit 0, @gate pass)',
    plan: ROUTED,
    attempts: { 2: [{ exit: 0 }], 4: [{ gate: 'pass' }] },
    expected: { dispatched: [1, 2, 4, 5], stop: 'routed_complete' },
  },
  {
    name: 'a dead judge is a fail, never a pass',
    plan: ROUTED,
    attempts: { 2: [{ exit: 0 }], 4: [{ deadJudge: true }] },
    expected: { dispatched: [1, 2, 4, 6], stop: 'routed_complete' },
  },
  {
    name: 'a @verify node that fails with no route out',
    plan: '- [ ] Count words {#count}\n- [ ] (after: #count) @verify The counts match wc\n- [ ] Write the README\n',
    attempts: { 2: [{ gate: 'fail' }] },
    expected: { dispatched: [1, 2, 3], stop: 'routed_complete' },
  },
  {
    name: 'a @gate pass with a route: the target runs',
    plan: '- [ ] Count words {#count}\n- [ ] (after: #count) @gate Review it\n  @on pass -> #ship\n- [ ] Ship it {#ship}\n',
    attempts: { 2: [{ gate: 'pass' }] },
    expected: { dispatched: [1, 2, 3], stop: 'plan_complete' },
  },
  {
    name: 'a failing work item in a routed plan is retried, then its ok route runs',
    plan: '- [ ] Count words {#count}\n  @on ok -> #docs\n- [ ] Write the README {#docs}\n',
    attempts: { 1: [{ fail: 'verification' }, { ok: true }] },
    expected: { dispatched: [1, 1, 2], stop: 'plan_complete' },
  },
  {
    name: 'a @tool node whose command fails with no route out: routed_complete',
    plan: '- [ ] Count words {#count}\n- [ ] (after: #count) @tool `npm test`\n- [ ] Write the README\n',
    attempts: { 2: [{ exit: 2 }] },
    expected: { dispatched: [1, 2, 3], stop: 'routed_complete' },
  },
  {
    name: 'a @feedback node that proposes nothing',
    plan: '- [ ] Count words\n- [ ] @feedback Ask for feedback\n- [ ] Write the README\n',
    attempts: { 2: [{ feedback: true }] },
    expected: { dispatched: [1, 2, 3], stop: 'plan_complete' },
  },
  {
    name: 'a @human node in a routed plan under full, then the rest',
    plan: '- [ ] Count words {#count}\n- [ ] (after: #count) @human Pick the licence\n  @on ok -> #pub\n- [ ] Publish the docs {#pub}\n',
    attempts: { 2: [{ human: licence() }] },
    expected: { dispatched: [1, 2, 3], stop: 'plan_complete', entries: 1 },
  },
  {
    name: 'a @human node in a routed plan under ask, after work',
    plan: '- [ ] Count words {#count}\n- [ ] (after: #count) @gate Review it\n  @on pass -> #h\n- [ ] @human Pick the licence {#h}\n',
    guardrails: '- autonomy: ask\n',
    attempts: { 2: [{ gate: 'pass' }] },
    expected: { dispatched: [1, 2], stop: 'awaiting_human' },
  },
  {
    name: 'the rescue in a routed plan',
    plan: '- [ ] Count words {#count}\n- [ ] (after: #count) @gate Review it\n',
    attempts: { 1: [...fails('partial', 3), { ok: true }], 2: [{ gate: 'pass' }] },
    rescue: { 1: RESCUE },
    expected: { dispatched: [1, 1, 1, 1, 2], stop: 'plan_complete', entries: 1 },
  },

  // --- signals from any node: a key declared with several values is a steering choice
  {
    name: 'signals: the branch plan under default answers takes the first declared value, one branch; the other is routed around',
    plan: BRANCH,
    expected: { dispatched: [1, 2, 3], stop: 'routed_complete' },
    failedBefore: 'signals: a work item always sent its last declared value, so the branch plan rolled back (1, 2, 4) and never shipped',
  },
  {
    name: 'signals: the work item reports the other value, so the other branch runs',
    plan: BRANCH,
    signals: { 2: { migrated: 'false' } },
    expected: { dispatched: [1, 2, 4], stop: 'routed_complete' },
  },
  {
    name: 'signals: a @gate reports its steering choice beside its verdict',
    plan: [
      '- [ ] Build it',
      '- [ ] (after: 1) @gate Judge the risk of the change',
      '  @emit risk=low',
      '  @emit risk=high',
      '  @on risk=low -> 3',
      '  @on risk=high -> 4',
      '- [ ] Ship it straight away',
      '- [ ] Stage it behind a canary first',
      '',
    ].join('\n'),
    attempts: { 2: [{ gate: 'pass' }] },
    signals: { 2: { risk: 'high' } },
    expected: { dispatched: [1, 2, 4], stop: 'routed_complete' },
  },
  {
    name: 'signals: a @tool reports a declared key beside its exit code',
    plan: [
      '- [ ] @tool npm run bench',
      '  @emit speed=fast',
      '  @emit speed=slow',
      '  @on speed=slow -> 2',
      '  @on speed=fast -> 3',
      '- [ ] Profile the hot loop',
      '- [ ] Write the release note',
      '',
    ].join('\n'),
    attempts: { 1: [{ exit: 0 }] },
    signals: { 1: { speed: 'slow' } },
    expected: { dispatched: [1, 2], stop: 'routed_complete' },
  },
  {
    name: 'signals: a @human node reports the choice its persona made',
    plan: [
      '- [ ] @human Choose the release channel',
      '  @emit channel=stable',
      '  @emit channel=beta',
      '  @on channel=stable -> 2',
      '  @on channel=beta -> 3',
      '- [ ] Publish to the stable channel',
      '- [ ] Publish to the beta channel',
      '',
    ].join('\n'),
    attempts: { 1: [{ human: licence({ title: 'Ship on the beta channel' }) }] },
    signals: { 1: { channel: 'beta' } },
    expected: { dispatched: [1, 3], stop: 'routed_complete', entries: 1 },
  },
  {
    name: 'signals: the plan-grammar worked example under default answers: the verify step reports migrated=true, the rollback is routed around',
    plan: WORKED_EXAMPLE,
    attempts: { 7: [{ human: licence({ title: 'Release it today' }) }] },
    expected: { dispatched: [1, 2, 3, 4, 6, 7], stop: 'routed_complete', entries: 1 },
    failedBefore: 'signals: the verify step always sent its last value, migrated=false, so both the rollback and the release ran (7/7 done)',
  },

  // --- the subagent cap (GUARDRAILS max_subagents_per_run): the spawn past it is refused and the run stops
  {
    name: 'the subagent cap: the run reaches max_subagents_per_run in its second item and stops subagent_cap',
    plan: '- [ ] One\n- [ ] Two\n- [ ] Three\n',
    guardrails: '- max_subagents_per_run: 4\n',
    subagents: true,
    expected: { dispatched: [1, 2], stop: 'subagent_cap' },
  },
  // --- done means verified (issue #27): a tick needs a passing verification after the last edit
  {
    name: 'done means verified: an edit after the verification is refused a tick until verified again; gates and tools need no receipt',
    plan: '- [ ] Count words\n- [ ] (after: 1) @gate Review it\n- [ ] (after: 2) @tool `npm test`\n- [ ] (after: 3) Add --json\n',
    attempts: { 1: [{ editAfterVerify: true }] },
    expected: { dispatched: [1, 2, 3, 4], stop: 'plan_complete' },
  },

  // --- the one stop only the Stop hook can see
  {
    name: 'the kill switch (session engine only: the script cannot see .leopold/STOP)',
    plan: '- [ ] One\n- [ ] Two\n- [ ] Three\n',
    killAfterTurns: 1,
    expected: { dispatched: [1], stop: 'kill_switch' },
  },
];
