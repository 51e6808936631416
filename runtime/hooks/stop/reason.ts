import type { PlanItem } from '../../plan/schema.js';
import { FAILURE_KINDS } from '../../decisions/forks.js';
import { recordSchemas } from '../../decisions/record-schemas.js';
import { FILL, recordTemplate, type TemplateEntry } from '../../decisions/template.js';
import { AMEND_BOUNDS, DECISION_PROTOCOL, FORBIDDEN_ACTIONS } from '../../persona/prompt-text.js';
import { declaredValues } from '../../plan/kind-facts.js';
import { leopoldCommand } from '../../project-cli/index.js';
import { renderEvidence, type Evidence } from '../../run/index.js';

/** What the block reason is built from; the I/O edge gathers the charter rules lazily. */
export interface ReasonInput {
  item: PlanItem;
  /** Every plan item (evidence names the node it comes from). */
  items: readonly PlanItem[];
  turn: number;
  maxIterations: number;
  autonomy: 'full' | 'ask';
  /** Set when this turn is the run's one rescue. */
  rescue: { kind: string; failures: number } | null;
  /** The number of the context window this turn opened (a new session), or null: then the session is told to read CHECKPOINT.md first. */
  resume?: number | null;
  /** Carry the run's protocol (the first turn of a run or a window, and the first after a compaction); otherwise the turn only names it. */
  protocol: boolean;
  /** Why the item failed last time, and why a taken route sent it here (runtime/run's decideNext). */
  evidence: readonly Evidence[];
  /** The charter's lifted rules (charterRules), needed at a persona fork. */
  charterRules: () => readonly string[];
}

export { FAILURE_KINDS };

/** Where the session writes a record before piping it to `leopold record` (transient; .gitignored by init). */
export const RECORD_FILE = '.leopold/record.json';

/**
 * How the session records, said once in the protocol: write the JSON to a file, then
 * redirect it into `leopold record`. The real client refuses a Bash command that carries
 * JSON inline ("Contains brace with quote character (expansion obfuscation)"), even under
 * an allow rule for the CLI; a redirect from a file passes (measured on 2.1.332).
 */
export const RECORD_HOW = `To record, write the JSON with the Write tool to ${RECORD_FILE}, then run: ${leopoldCommand('record')} < ${RECORD_FILE}`;

/** The marker line that opens the protocol (the scripted model and the tests find it by it). */
export const PROTOCOL_MARKER = 'Leopold run protocol';

const schemas = recordSchemas();
const template = (doc: { decisions?: TemplateEntry[]; events?: TemplateEntry[] }) => recordTemplate(schemas, doc);
/** The fields a full decision entry states, in the order templates show them. */
const FULL: TemplateEntry = { title: FILL, class: FILL, charter: FILL, decision: FILL, why: FILL, reversal: FILL };
/** Where a decision was made: filled by the hook when it knows, else left for the session. */
const at = (item: PlanItem | null, turn: number | null): TemplateEntry => ({
  item: item ? item.index : FILL,
  subject: item ? item.text : FILL,
  turn: turn ?? FILL,
});
const PERSONA = { persona: FILL };

/**
 * The run's protocol, carried once (docs/hooks.md, "The block reason"): how to record,
 * when an item is done, the decision protocol and its templates, what stops the run, and
 * what may never be done. Every later turn names only its item and how to report it.
 */
export function protocolText(): string {
  const record = (what: string, doc: Parameters<typeof template>[0]) => `${what}\n${template(doc)}`;
  return [
    `${PROTOCOL_MARKER}: it holds for every turn of this run. Each later turn names its item and how to report it, and refers back here.`,
    [
      '- One item per turn: do it, report it, then end your turn. The Stop hook hands you the next item or ends the run.',
      `- ${RECORD_HOW}`,
      '  It answers one JSON line; "ok": false names the field to fix: fix it and record again. Replace every <…> with the real value; a number stays a number.',
      '- A work item is done only when verified: re-run the tests it needs after your last edit (a claim is never acceptance; no test run, or a build alone, is partial). Only a P0, or a P1 defect or failed scenario it introduced, blocks; other review findings are follow-ups.',
      record('- Done but with concerns (a doubt, something left for later): record them before the tick, for the report:', {
        events: [{ event: 'outcome', item: FILL, label: 'DONE_WITH_CONCERNS', concerns: FILL }],
      }),
    ].join('\n'),
    DECISION_PROTOCOL,
    [
      record('Record every decision you make on the user\'s behalf, before the work it decides:', { decisions: [{ ...FULL, ...at(null, null) }] }),
      record(
        'One clearly right answer (ran the formatter, reused the existing helper, added the missing test) is mechanical:',
        { decisions: [{ title: FILL, decision: FILL, mechanical: true, ...at(null, null) }] },
      ),
      record(
        'A fork the charter does not settle for you (a needs-confirm or ambiguous blocker) is an escalation: synthesize the person best placed to decide it (a specific job, never a generic role; if none fits, "persona": null), decide as that persona against the charter, record it, then carry on with the item:',
        { decisions: [{ ...FULL, fork: 'escalation', ...at(null, null), ...PERSONA }] },
      ),
      '- leopold record refuses an irreversible decision the charter is silent on: that fork is not yours to settle. The refusal records the escalation itself: end your turn; the run stops for the user to decide.',
      record('- Never record a decision nobody made. A fork nobody can settle is an escalation: report it and end your turn; the run stops with escalation:', {
        events: [{ event: 'escalation', item: FILL, question: FILL }],
      }),
      record(
        '- What only a person may settle is never a persona\'s: work GUARDRAILS.md gates, the mission\'s premise found false, the charter contradicting itself, a Never rule in the way. Report it and end your turn; the run stops for the user:',
        { events: [{ event: 'needs-person', item: FILL, reason: FILL, question: FILL }] },
      ),
    ].join('\n'),
    `You may never: ${FORBIDDEN_ACTIONS.join('; ')}.`,
  ].join('\n\n');
}

/**
 * The block reason for one turn: the protocol first when the turn carries it, the item,
 * its evidence, and how to report it (`leopold plan tick N`, or the failure / verdict / exit
 * event, from the record schemas' templates). At a `@human` node (under full) and at the
 * rescue it carries the persona fork: the charter's binding rules and the entry to record.
 * On the first turn of a new context window it opens by pointing the session at
 * CHECKPOINT.md.
 */
export function blockReason(input: ReasonInput): string {
  const { item, turn } = input;
  const n = item.index;
  const parts: string[] = [];
  if (input.resume != null) {
    parts.push(
      `Leopold run: this session is context window ${input.resume} of an active run. Read .leopold/CHECKPOINT.md first ` +
        '(the resume note the last window left: run state, items done and open, the latest decisions, open failures); do not start a new run. Then do this item.',
    );
  }
  if (input.protocol) parts.push(protocolText());
  const head = item.kind === 'work' ? '' : `@${item.kind}${item.label ? ` (${item.label})` : ''} `;
  const lines = [`Leopold run, turn ${turn} of at most ${input.maxIterations}. Work on item ${n} now, and only on it: ${head}${item.text}`];
  if (item.scenarios.length > 0) lines.push(`Acceptance scenarios (check these first):\n${item.scenarios.map((s) => `- ${s}`).join('\n')}`);
  if (item.writes.length > 0) lines.push(`Change only files matching: ${item.writes.join(' ')}`);
  parts.push(lines.join('\n'));
  if (input.evidence.length > 0) parts.push(`Evidence:\n${renderEvidence(input.evidence, input.items, n)}`);

  const fork = personaFork(input);
  if (fork) parts.push(fork);
  parts.push(howToReport(item));
  const signals = signalsReport(item);
  if (signals) parts.push(signals);
  parts.push(`Record each decision you make as the protocol says (item ${n}, turn ${turn}); never commit, push or publish. Then end your turn.`);
  return parts.join('\n\n');
}

// How an item of each kind is reported: the tick, and the events the hook folds.
function howToReport(item: PlanItem): string {
  const n = item.index;
  const tick = leopoldCommand(`plan tick ${n}`);
  switch (item.kind) {
    case 'work':
      return [
        `Verified (its tests pass after your last edit): record it, then ${tick} (refused if the tree changed since)\n${template({ events: [{ event: 'verified', item: n, commands: FILL }] })}`,
        `Failed: record it, then end your turn (the next turn retries it, or the run stops):\n${template({ events: [{ event: 'failure', item: n, kind: FILL, evidence: FILL }] })}`,
        `Blocking review findings you cannot fix: record one ruling decision per finding, then:\n${template({ events: [{ event: 'item-open', item: n, reason: FILL }] })}`,
      ].join('\n');
    case 'gate':
    case 'verify':
      return `Judge it read-only (change no file). Record the verdict; on pass also run ${tick}:\n${template({ events: [{ event: item.kind, item: n, verdict: FILL, reasons: FILL }] })}`;
    case 'tool': {
      const command = item.command ?? item.text;
      return [
        `Run exactly, from the project root, and fix nothing: ${command}`,
        `Record how it exited (the output: the lines that show what failed, such as the failing test and its assertion, not only a summary); if the exit code is 0 also run ${tick}:`,
        template({ events: [{ event: 'tool', item: n, command, exit: FILL, output: FILL }] }),
      ].join('\n');
    }
    case 'feedback':
      return `Gather feedback on the work so far. You may propose at most three follow-up items as a leopold-amend block of \`ADD [(after: N)] <text>\` lines (plain work only; nothing deleted or edited). Record them, then run ${tick}:\n${template({ events: [{ event: 'amendments', item: n, proposals: FILL }] })}`;
    case 'human':
      return `Then do the work the decision calls for and run ${tick}.`;
  }
}

/** What the deadlock repair's block reason is built from. */
export interface RepairReasonInput {
  waiting: readonly PlanItem[];
  /** Plan changes the run has left (the budget is 3, shared with @feedback). */
  left: number;
  turn: number;
  charterRules: () => readonly string[];
}

/** The charter's lifted rules as every persona fork's block states them. */
const bindingRules = (rules: readonly string[]) =>
  `Binding rules lifted verbatim from CHARTER.md (the persona cannot change them):\n${rules.length === 0 ? '(none)' : rules.map((r) => `- ${r}`).join('\n')}`;

/** What the persona fork says about whom to synthesize, in every engine's words. */
const PERSONA_RULE =
  'Synthesize the person best placed to decide it: a name, a specific job (never a generic one: assistant, engineer, developer, expert, …) and their expertise; if none fits, decide under the default worker prompt and record "persona": null.';

/**
 * The block reason for the run's one deadlock repair (the workflow asks a repair persona
 * the same): the stuck items, the bounds, the exact `leopold plan amend --context runtime`
 * command (the one amendment pipeline judges and writes it), and the `deadlock` decision
 * entry with its persona. The next Stop re-reads PLAN.md; still stuck, the run stops.
 */
export function repairReason(input: RepairReasonInput): string {
  const first = input.waiting[0]!;
  const amend = `${leopoldCommand('plan amend --context runtime --json')} < ${AMEND_FILE}`;
  const entry: TemplateEntry = { ...FULL, title: 'Repaired a deadlock: <the proposal lines>', class: 'reversible', fork: 'deadlock', ...at(first, input.turn), ...PERSONA };
  return [
    `Leopold run: the plan is stuck. Items ${input.waiting.map((item) => `${item.index} ("${item.text}")`).join(', ')} wait on each other, so none can ever be dispatched. This is the run's one deadlock repair; work on no item.`,
    PERSONA_RULE,
    bindingRules(input.charterRules()),
    [
      `Propose at most ${input.left === 1 ? 'one change' : `${input.left} changes`} in a fenced leopold-amend block: ${AMEND_BOUNDS}`,
      `Write the block to ${AMEND_FILE} with the Write tool, then run: ${amend}`,
      'It prints one JSON line; "ok": false means nothing was applied (all or nothing): then record nothing and end your turn; the run stops with deadlock.',
    ].join('\n'),
    `When it printed "ok": true, record the decision with its persona (the Reversal names how to undo each change). ${RECORD_HOW}\n${template({ decisions: [entry] })}`,
    `You may never: ${FORBIDDEN_ACTIONS.join('; ')}.`,
    'Then end your turn; the Stop hook re-reads PLAN.md and hands you the next item, or stops the run with deadlock if it is still stuck.',
  ].join('\n\n');
}

/** The marker line that opens the final review's block reason (the tests and the scripted model find it by it). */
export const FINAL_REVIEW_MARKER = 'Leopold run: every item is done. Final review';

/**
 * The block reason for the run's one final review of the whole change (the workflow asks
 * its final reviewer the same): review read-only, record the findings, and when any is
 * blocking add the one item that fixes them all with `leopold plan amend`. The next Stop
 * folds the `final-review` event (runtime/run's blocking rule): the added item runs, or the
 * run stops with escalation (nothing added), or completes (no blocking finding).
 */
export function finalReviewReason(left: number): string {
  const amend = `${leopoldCommand('plan amend --json')} < ${AMEND_FILE}`;
  return [
    `${FINAL_REVIEW_MARKER} of the whole change, read-only: \`git status\` and \`git diff HEAD\` (this run's change). Look for what no single item's review could see: items that contradict each other, a contract one changed and another relies on, a mission goal left undone.`,
    `Record every finding (type: defect, scenario, probe, hardening, refactor, test-gap, docs, design; introduced: this run made it), [] when none. ${RECORD_HOW}\n${template({ events: [{ event: 'final-review', findings: FILL }] })}`,
    `Blocking: a P0, or a P1 defect, scenario or probe this run introduced. If any is blocking${left > 0 ? '' : ' (no plan change is left: the run will stop for the user)'}, add ONE item that fixes them all: write a leopold-amend block with the line \`ADD Fix the final review's blocking findings: <each as "P0 defect file:line: problem (fix: fix)", ;-separated>\` to ${AMEND_FILE}, then run: ${amend}`,
    'Then end your turn (an item you added runs next; other findings are follow-ups in the report). Ending it with no final-review recorded stops the run with escalation: a review nobody recorded never passes.',
  ].join('\n\n');
}

/** Where the session writes a deadlock repair's leopold-amend block before piping it to `leopold plan amend`. */
const AMEND_FILE = '.leopold/amend.md';

/** The marker line before the signals template (the session's report of its `@emit` values). */
export const SIGNALS_MARKER = 'This item declares signals';

/**
 * How the session reports the values of the keys an item declares: one `signals` event
 * (the workflow's agents answer the same values in their structured answer). A key with
 * several declared values is a steering choice; one not reported sends its first value.
 */
function signalsReport(item: PlanItem): string | null {
  const declared = declaredValues(item);
  if (declared.size === 0) return null;
  const values = Object.fromEntries([...declared].map(([key, list]) => [key, list.length > 1 ? `<${list.join('|')}>` : list[0]!]));
  const choices = [...declared].filter(([, list]) => list.length > 1).map(([key, list]) => `${key} (${list.join(' or ')}; default ${list[0]})`);
  return [
    `${SIGNALS_MARKER}${choices.length > 0 ? `; the plan routes on your choice of ${choices.join(', ')}` : ''}. When the item is done, before you tick it, record the value you chose for each key (only the values shown; a key you leave out sends its first value):`,
    template({ events: [{ event: 'signals', item: item.index, values }] }),
  ].join('\n');
}

/** The marker of the persona fork's decision template (the tests and the scripted model find it by it). */
export const FORK_TEMPLATE_MARKER = 'Record the decision with its persona:';

// At a @human node (autonomy full) or the rescue: the persona to synthesize, the binding
// rules lifted from the charter, and the exact decision entry.
function personaFork(input: ReasonInput): string | null {
  const { item, turn, rescue } = input;
  const n = item.index;
  if (item.kind !== 'human' && rescue === null) return null;
  const situation = rescue
    ? `This is the run's one rescue: item ${n} failed ${rescue.failures} times in a row (${rescue.kind}). Choose ONE genuinely different approach (not a retry), as the role this failure needs, then attempt the item under it.`
    : `This is a @human node: the plan asked for a person here and you stand in for one (autonomy is full: do not stop to ask, unless leopold record refuses the decision as irreversible on a silent charter).`;
  const entry: TemplateEntry = rescue
    ? {
        title: `Rescue item ${n} with a different approach`,
        fork: 'repeated-failure',
        ...at(item, turn),
        ...PERSONA,
        class: 'reversible',
        charter: 'silent',
        decision: FILL,
        why: `${rescue.failures} consecutive ${rescue.kind} failures; the run's one rescue (bias to action)`,
        reversal: "Discard the rescued attempt's uncommitted changes and return to the original approach.",
      }
    : { ...FULL, fork: 'human', ...at(item, turn), ...PERSONA };
  return [
    situation,
    PERSONA_RULE,
    bindingRules(input.charterRules()),
    `${FORK_TEMPLATE_MARKER}\n${template({ decisions: [entry] })}`,
    ...(rescue
      ? [`If there is no genuinely different approach, do not attempt the item: record it and end your turn; the run stops with repeated_failure:\n${template({ events: [{ event: 'no-approach', item: n }] })}`]
      : []),
  ].join('\n');
}
