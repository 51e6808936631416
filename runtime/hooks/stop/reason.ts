import type { PlanItem } from '../../plan/schema.js';
import { AMEND_BOUNDS, DECISION_PROTOCOL, FORBIDDEN_ACTIONS } from '../../persona/prompt-text.js';
import { declaredValues } from '../../plan/kind-facts.js';
import { leopoldCommand } from '../../project-cli/index.js';

/** What the block reason is built from; the I/O edge gathers the charter rules and the schema lazily. */
export interface ReasonInput {
  item: PlanItem;
  turn: number;
  maxIterations: number;
  autonomy: 'full' | 'ask';
  /** Set when this turn is the run's one rescue. */
  rescue: { kind: string; failures: number } | null;
  /** The number of the context window this turn opened (a new session), or null: then the session is told to read CHECKPOINT.md first. */
  resume?: number | null;
  /** The charter's lifted rules (charterRules), needed at a persona fork. */
  charterRules: () => readonly string[];
  /** The persona answer's JSON Schema (personaAnswerJsonSchema), needed at a persona fork. */
  personaSchema: () => Record<string, unknown>;
}

/** Failure kinds the session reports, as the workflow names them. */
export const FAILURE_KINDS = ['implementer', 'blocked', 'partial', 'verification', 'review'] as const;

const json = (value: unknown) => JSON.stringify(value);
/** The charter's lifted rules as every persona fork's block states them. */
const bindingRules = (rules: readonly string[]) =>
  `Binding rules lifted verbatim from CHARTER.md (the persona cannot change them):\n${rules.length === 0 ? '(none)' : rules.map((r) => `- ${r}`).join('\n')}`;
/** Where the session writes a record before piping it to `leopold record` (transient; .gitignored by init). */
export const RECORD_FILE = '.leopold/record.json';
/**
 * How the session records: write the JSON to a file, then redirect it into `leopold record`.
 * The real client refuses a Bash command that carries JSON inline ("Contains brace with
 * quote character (expansion obfuscation)"), even under an allow rule for the CLI, so a
 * heredoc instruction could never be followed; a redirect from a file passes (measured on
 * 2.1.332).
 */
const record = (doc: unknown) => `Write ${RECORD_FILE} with the Write tool, then run: ${leopoldCommand('record')} < ${RECORD_FILE}\n${json(doc)}`;

/** The placeholders a decision template carries; the session replaces every `<…>`. */
export const DECISION_PLACEHOLDERS = {
  title: '<one-line title>',
  class: '<reversible|irreversible>',
  charter: '<the CHARTER rule that decided it, verbatim, or silent>',
  decision: '<what you chose>',
  why: '<the principle or rule>',
  reversal: '<how to undo it, concretely>',
} as const;

/**
 * The block reason (SPEC-RUNTIME §6): a compact instruction for the next turn naming the
 * item, how to report its outcome (`leopold plan tick N`, or the failure / verdict / exit
 * event as the workflow's scribe writes it), the decision protocol and the exact
 * `leopold record` command for decisions. At a `@human` node (under full) and at the
 * rescue it carries the lifted charter rules and the persona answer's JSON Schema. On the
 * first turn of a new context window it opens by pointing the session at CHECKPOINT.md.
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
  const head = item.kind === 'work' ? '' : `@${item.kind}${item.label ? ` (${item.label})` : ''} `;
  parts.push(`Leopold run, turn ${turn} of at most ${input.maxIterations}. Work on item ${n} now, and only on it: ${head}${item.text}`);
  if (item.scenarios.length > 0) parts.push(`Acceptance scenarios (check these first):\n${item.scenarios.map((s) => `- ${s}`).join('\n')}`);
  if (item.writes.length > 0) parts.push(`Change only files matching: ${item.writes.join(' ')}`);

  const tick = leopoldCommand(`plan tick ${n}`);
  const fork = personaFork(input);
  if (fork) parts.push(fork);
  switch (item.kind) {
    case 'work':
      parts.push(
        [
          `Implement it, then verify it independently: re-run the tests it needs (a claim is never acceptance; no test run, or a build alone, means partial; only a P0, or a P1 defect or failed scenario it introduced, blocks: other review findings are follow-ups). When it is verified: ${tick}`,
          `If the attempt fails, report it (kind: ${FAILURE_KINDS.join(' | ')}) and end your turn; the next turn retries or stops:`,
          record({ events: [{ event: 'failure', item: n, kind: '<kind>', evidence: '<what failed>' }] }),
          `If you must leave it open (blocking review findings you cannot fix), record one ruling decision per finding, then:`,
          record({ events: [{ event: 'item-open', item: n, reason: '<why>' }] }),
        ].join('\n'),
      );
      break;
    case 'gate':
    case 'verify':
      parts.push(
        [
          `Judge it read-only (change no file). Report the verdict; on pass also run ${tick}:`,
          record({ events: [{ event: item.kind, item: n, verdict: '<pass|fail>', reasons: '<why>' }] }),
        ].join('\n'),
      );
      break;
    case 'tool':
      parts.push(
        [
          `Run exactly, from the project root, and fix nothing: ${item.command ?? item.text}`,
          `Report its exit code; if it is 0 also run ${tick}:`,
          record({ events: [{ event: 'tool', item: n, command: item.command ?? item.text, exit: '<exit code, a number>' }] }),
        ].join('\n'),
      );
      break;
    case 'feedback':
      parts.push(
        [
          'Gather feedback on the work so far. You may propose at most three follow-up items as a leopold-amend block of `ADD [(after: N)] <text>` lines (plain work only; nothing deleted or edited). Record them, then run ' + tick + ':',
          record({ events: [{ event: 'amendments', item: n, proposals: '<the ADD lines, or empty>' }] }),
        ].join('\n'),
      );
      break;
    case 'human':
      parts.push(`Then do the work the decision calls for and run ${tick}.`);
      break;
  }

  const signals = signalsReport(item);
  if (signals) parts.push(signals);

  parts.push(DECISION_PROTOCOL);
  parts.push(
    [
      `Record every decision you make on the user's behalf, before the work it decides:`,
      record({ decisions: [{ ...DECISION_PLACEHOLDERS, item: n, subject: item.text, turn }] }),
      `A mechanical decision (one clearly right answer: ran the formatter, reused the existing helper, added the missing test) is one line:`,
      record({ decisions: [{ title: '<what>', decision: '<how>', mechanical: true, item: n, turn }] }),
      `A fork the charter does not settle for you (a needs-confirm or ambiguous blocker) is an escalation: synthesize the person best placed to decide it (a specific job, never a generic role; if none fits, "persona": null), decide as that persona against the charter, record it with fork "escalation", then carry on with the item:`,
      record({ decisions: [{ ...DECISION_PLACEHOLDERS, fork: 'escalation', item: n, subject: item.text, persona: { name: '<name>', role: '<role>', expertise: ['<expertise>'] }, turn }] }),
      'leopold record refuses an irreversible decision the charter is silent on: that fork is not yours to settle. The refusal records the escalation itself; end your turn and the run stops with escalation for the user to decide.',
      `It also refuses an entry with no decision or no why: never record a decision nobody made. A fork nobody can settle (no usable decision) is an escalation: report it and end your turn; the run stops with escalation:`,
      record({ events: [{ event: 'escalation', item: n, question: '<the fork nobody could settle>' }] }),
    ].join('\n'),
  );
  parts.push(`You may never: ${FORBIDDEN_ACTIONS.join('; ')}.`);
  parts.push('Then end your turn; the Stop hook hands you the next item.');
  return parts.join('\n\n');
}

/** What the deadlock repair's block reason is built from. */
export interface RepairReasonInput {
  waiting: readonly PlanItem[];
  /** Plan changes the run has left (the budget is 3, shared with @feedback). */
  left: number;
  charterRules: () => readonly string[];
  personaSchema: () => Record<string, unknown>;
}

/**
 * The block reason for the run's one deadlock repair (the workflow asks a repair persona
 * the same): the stuck items, the bounds, the exact `leopold plan amend --context runtime`
 * command (the one amendment pipeline judges and writes it), and the `deadlock` decision
 * entry with its persona. The next Stop re-reads PLAN.md; still stuck, the run stops.
 */
export function repairReason(input: RepairReasonInput): string {
  const first = input.waiting[0]!;
  const rules = input.charterRules();
  const amend = `${leopoldCommand('plan amend --context runtime --json')} < ${AMEND_FILE}`;
  const entry = {
    ...DECISION_PLACEHOLDERS,
    title: 'Repaired a deadlock: <the proposal lines>',
    fork: 'deadlock',
    item: first.index,
    subject: first.text,
    persona: { name: '<name>', role: '<role>', expertise: ['<expertise>'] },
    class: 'reversible',
  };
  return [
    `Leopold run: the plan is stuck. Items ${input.waiting.map((item) => `${item.index} ("${item.text}")`).join(', ')} wait on each other, so none can ever be dispatched. This is the run's one deadlock repair; work on no item.`,
    `Synthesize the person best placed to mend the plan (a specific job, never a generic role). Persona answer shape (JSON Schema): ${json(input.personaSchema())}`,
    bindingRules(rules),
    [
      `Propose at most ${input.left === 1 ? 'one change' : `${input.left} changes`} in a fenced leopold-amend block: ${AMEND_BOUNDS}`,
      `Write the block to ${AMEND_FILE} with the Write tool, then run: ${amend}`,
      'It prints one JSON line; "ok": false means nothing was applied (all or nothing): then record nothing and end your turn; the run stops with deadlock.',
    ].join('\n'),
    `When it printed "ok": true, record the decision with its persona (the Reversal names how to undo each change):\n${record({ decisions: [entry] })}`,
    `You may never: ${FORBIDDEN_ACTIONS.join('; ')}.`,
    'Then end your turn; the Stop hook re-reads PLAN.md and hands you the next item, or stops the run with deadlock if it is still stuck.',
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
    `${SIGNALS_MARKER}${choices.length > 0 ? `; the plan routes on your choice of ${choices.join(', ')}` : ''}. When the item is done, before you tick it, report the value you chose for each key (only the values shown):`,
    record({ events: [{ event: 'signals', item: item.index, values }] }),
    'A key you do not report sends its first declared value.',
  ].join('\n');
}

// At a @human node (autonomy full) or the rescue: the persona to synthesize, its answer
// shape, the binding rules lifted from the charter, and the exact decision entry.
function personaFork(input: ReasonInput): string | null {
  const { item, turn, rescue } = input;
  const n = item.index;
  if (item.kind !== 'human' && rescue === null) return null;
  const forkName = rescue ? 'repeated-failure' : 'human';
  const rules = input.charterRules();
  const situation = rescue
    ? `This is the run's one rescue: item ${n} failed ${rescue.failures} times in a row (${rescue.kind}). Synthesize the role this failure needs and choose ONE genuinely different approach (not a retry), then attempt the item under it.`
    : `This is a @human node: the plan asked for a person here and you stand in for one. Synthesize the person best placed to decide it (autonomy is full: do not stop to ask, unless leopold record refuses the decision as irreversible on a silent charter).`;
  const entry = rescue
    ? {
        title: `Rescue item ${n} with a different approach`,
        fork: forkName,
        item: n,
        subject: item.text,
        persona: { name: '<name>', role: '<role>', expertise: ['<expertise>'] },
        class: 'reversible',
        charter: 'silent',
        decision: '<the approach>',
        why: `${rescue.failures} consecutive ${rescue.kind} failures; the run's one rescue (bias to action)`,
        reversal: "Discard the rescued attempt's uncommitted changes and return to the original approach.",
        turn,
      }
    : { ...DECISION_PLACEHOLDERS, fork: forkName, item: n, subject: item.text, persona: { name: '<name>', role: '<role>', expertise: ['<expertise>'] }, turn };
  return [
    situation,
    `Persona answer shape (JSON Schema): ${json(input.personaSchema())}`,
    'The role must be a specific job, never a generic one (assistant, engineer, developer, expert, …); if none fits, decide under the default worker prompt and record "persona": null.',
    bindingRules(rules),
    `Record the decision with its persona:\n${record({ decisions: [entry] })}`,
    ...(rescue
      ? [`If there is no genuinely different approach, do not attempt the item: report it and end your turn; the run stops with repeated_failure:\n${record({ events: [{ event: 'no-approach', item: n }] })}`]
      : []),
  ].join('\n');
}
