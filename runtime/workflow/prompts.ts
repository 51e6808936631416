import { AMEND_BOUNDS, DECISION_PROTOCOL, FORBIDDEN_ACTIONS } from '../persona/prompt-text.js';
import type { PersonaAnswer } from '../persona/schema.js';
import type { Finding, Handoff } from './agent-schemas.js';
import { EVIDENCE_BYTES } from '../run/index.js';
import type { EmbeddedItem, EmbeddedNode, EmbeddedPlan } from './plan.js';
import { signalsInstruction } from './signals.js';

const section = (title: string, body: string) => `## ${title}\n\n${body.trim() === '' ? '(none)' : body.trim()}`;
const bullets = (lines: readonly string[]) => lines.map((line) => `- ${line}`).join('\n');
/** The Signals section of a node that declares `@emit` keys, or nothing. */
const signalsSection = (node: Pick<EmbeddedNode, 'emits'>) => {
  const text = signalsInstruction(node);
  return text === null ? [] : [section('Signals', text)];
};

/** One review finding on one line, as prompts and evidence state it. */
export const findingLine = (f: Finding) => `${f.severity} ${f.type} ${f.file}${f.line > 0 ? `:${f.line}` : ''}: ${f.problem} (fix: ${f.fix})`;

/** The evidence a dispatch carries (a failed run's output, a failed verdict's reasons), or nothing. */
const evidenceSection = (evidence: string) => (evidence === '' ? [] : [section('Evidence', evidence)]);

/** The brief every agent prompt starts from: mission, lifted charter rules, protocol, forbidden actions. */
export function briefSections(plan: EmbeddedPlan): string[] {
  return [
    section('Mission', plan.mission),
    section('Charter rules (binding, lifted verbatim from CHARTER.md)', bullets(plan.charterRules)),
    section('Decision protocol', DECISION_PROTOCOL),
    section('You may never', bullets(FORBIDDEN_ACTIONS)),
  ];
}

function itemSection(item: EmbeddedItem): string {
  const lines = [`Item ${item.index} (${item.id}): ${item.text}`];
  if (item.scenarios.length > 0) lines.push('', 'Acceptance scenarios (check these first):', bullets(item.scenarios));
  if (item.writes.length > 0) lines.push('', `Change only files matching: ${item.writes.join(' ')}`);
  return section('The item', lines.join('\n'));
}

/** Who the agent is: the persona's role (with its rules), or the default worker. */
function roleLine(persona: PersonaAnswer | null, fallback: string): string {
  if (!persona) return fallback;
  return `You are ${persona.name}, ${persona.role} (${persona.expertise.join('; ')}). The charter rules below bind you exactly as they bind any worker.`;
}

/** What an implementer round carries besides the item. */
export interface ImplementContext {
  round: number;
  findings: readonly Finding[];
  resolution: string | null;
  persona: PersonaAnswer | null;
  approach: string | null;
  /** Why this item failed last time and why a route sent it here (runtime/run/evidence.ts), rendered; '' when none. */
  evidence: string;
}

export function implementPrompt(plan: EmbeddedPlan, item: EmbeddedItem, context: ImplementContext): string {
  const parts = [
    roleLine(context.persona, 'You are the implementer of one item of a Leopold plan.'),
    ...briefSections(plan),
    itemSection(item),
  ];
  if (context.approach) parts.push(section('Take this genuinely different approach (the rescue)', context.approach));
  parts.push(...evidenceSection(context.evidence));
  if (context.resolution) parts.push(section('The fork you escalated was settled', context.resolution));
  if (context.findings.length > 0) {
    parts.push(
      section(
        `Fix round ${context.round}: fix these blocking review findings`,
        bullets(context.findings.map(findingLine)),
      ),
    );
  }
  parts.push(
    section(
      'Answer',
      [
        'Do the work in the working tree, run the tests the item needs, then answer the handoff JSON:',
        'status completed | partial | blocked; files_changed; tests_run (each command, result, summary; a handoff with no test run, or with only a build, type-check or lint, counts as partial);',
        'evidence; blocked_reason (a stop token first: too-big, needs-confirm, ambiguous, regressed, scope); concerns;',
        'decisions: every decision you made on the user\'s behalf, before the work it decided: a full entry (title, class reversible | irreversible, charter: the rule that decided it verbatim or "silent", decision, why, reversal: how to undo it), or { title, decision, mechanical: true } for one clearly right answer. They go into DECISIONS.md.',
        'Use needs-confirm or ambiguous only for a fork the charter cannot settle; a persona will settle it and hand it back to you. An irreversible decision the charter is silent on is not yours to make: answer blocked with needs-confirm instead.',
        'What only a person may settle, no persona: answer blocked with gated (work GUARDRAILS.md gates), premise (the mission\'s premise looks false), charter-contradiction or never-rule (a Never rule is in the way) first, then the question; the run stops for the user.',
      ].join('\n'),
    ),
    ...signalsSection(item),
  );
  return parts.join('\n\n');
}

export function verifyPrompt(plan: EmbeddedPlan, item: EmbeddedItem, handoff: Handoff): string {
  return [
    'You are the verifier: independent of the implementer, whose claim is never acceptance.',
    ...briefSections(plan),
    itemSection(item),
    section(
      "The implementer's handoff",
      `files changed: ${handoff.files_changed.join(', ') || '(none)'}\ntests they ran:\n${bullets(handoff.tests_run.map((t) => `${t.command} -> ${t.result}: ${t.summary}`))}\nevidence: ${handoff.evidence}`,
    ),
    section('Answer', 'Re-run the tests this item needs yourself (not only theirs). Answer verdict pass only when they pass and the scenarios hold; list what you ran in tests_run.'),
  ].join('\n\n');
}

const REVIEW_FOCUS: Record<string, string> = {
  correctness: 'Correctness: does the change do what the item says, without regressions? Check the acceptance scenarios first.',
  security: 'Security: the item is sensitive. Look for injection, secrets, unsafe input handling, permissions and data exposure. Check the scenarios first.',
  works: 'Does it actually work: the item is critical. Run it end to end as a user would, starting with the scenarios.',
};

export function reviewPrompt(plan: EmbeddedPlan, item: EmbeddedItem, reviewer: string, handoff: Handoff): string {
  return [
    `You are an independent reviewer. ${REVIEW_FOCUS[reviewer] ?? reviewer}`,
    ...briefSections(plan),
    itemSection(item),
    section('Changed files', handoff.files_changed.join('\n') || '(none named)'),
    section(
      'Answer',
      [
        'findings: each { severity P0|P1|P2, type, file, line, problem, fix, introduced }. type is one of defect, scenario, probe, hardening, refactor, test-gap, docs, design:',
        'defect only when the change violates a spec, a documented contract or stated behaviour; scenario or probe when it fails an acceptance scenario or probe.',
        'P0 blocks; a P1 blocks only when this item introduced it and it is a defect, scenario or probe; every other finding (and every P2) is a follow-up recorded when the item closes. Report nothing you cannot point at.',
      ].join('\n'),
    ),
  ].join('\n\n');
}

/**
 * The final review of the whole change (the SDD protocol's final branch review): one
 * reviewer, read-only, every change the run made, findings in the review schema.
 */
export function finalReviewPrompt(plan: EmbeddedPlan): string {
  return [
    'You are the final reviewer of a Leopold run: every item of the plan is done. Read-only: change no file.',
    ...briefSections(plan),
    section(
      'What to review',
      'The whole change this run made, as one branch: `git status` and `git diff HEAD` (commits are locked during a run, so HEAD is where it started). Look for what no single item review could see: items that contradict each other, a contract one item changed and another relies on, a mission goal left undone.',
    ),
    section(
      'Answer',
      [
        'findings: each { severity P0|P1|P2, type, file, line, problem, fix, introduced } (introduced: this run made the problem). type is one of defect, scenario, probe, hardening, refactor, test-gap, docs, design.',
        'P0 blocks; a P1 blocks only when this run introduced it and it is a defect, scenario or probe. Blocking findings become one item that fixes them; every other finding is a follow-up in the report. Report nothing you cannot point at.',
      ].join('\n'),
    ),
  ].join('\n\n');
}

export function judgePrompt(plan: EmbeddedPlan, node: EmbeddedNode, evidence = ''): string {
  const what = node.kind === 'gate' ? `a @gate${node.label ? ` (${node.label})` : ''}` : 'a @verify check';
  return [
    `You are the judge of ${what}. Read-only: change no file.`,
    ...briefSections(plan),
    itemSection(node),
    ...evidenceSection(evidence),
    section('Answer', 'verdict pass or fail, and the reasons. The plan routes on your verdict.'),
    ...signalsSection(node),
  ].join('\n\n');
}

export function toolPrompt(plan: EmbeddedPlan, node: EmbeddedNode, evidence = ''): string {
  return [
    'You run one command for a Leopold plan and report how it exited. Do not fix anything.',
    ...briefSections(plan),
    section('Command', `Run exactly, from the project root:\n\n    ${node.command ?? node.text}`),
    ...evidenceSection(evidence),
    section('Answer', `exit: the exit code (a number); output: the lines of its output that show what failed, such as the failing test and its assertion, not only a summary (at most ${EVIDENCE_BYTES} bytes).`),
    ...signalsSection(node),
  ].join('\n\n');
}

/** The `@feedback` prompt; `left` is how many plan changes the run may still make (of 3). */
export function feedbackPrompt(plan: EmbeddedPlan, node: EmbeddedNode, left: number, evidence = ''): string {
  const lines = left === 1 ? 'one line' : `${left} lines`;
  const answer =
    left === 0
      ? 'This run has no plan changes left: amendments "" and a summary.'
      : `amendments: a fenced \`\`\`leopold-amend block with at most ${lines} \`ADD [(after: N)] <text>\` (plain work, no markers, nothing deleted or edited; N is an item number), or "" for none; summary. Added items are appended to PLAN.md and done later in this run.`;
  return [
    'You gather feedback on the work so far and may propose follow-up work.',
    ...briefSections(plan),
    itemSection(node),
    ...evidenceSection(evidence),
    section('Answer', answer),
    ...signalsSection(node),
  ].join('\n\n');
}

/** The runtime deadlock repair: the stuck items, the bounds, and the answer as a leopold-amend block. */
export function repairPrompt(plan: EmbeddedPlan, stuck: readonly EmbeddedNode[], persona: PersonaAnswer | null, left: number): string {
  const who = persona ? `You are ${persona.name}, ${persona.role}.` : 'You are the default worker.';
  const lines = left === 1 ? 'one line' : `at most ${left} lines`;
  return [
    `${who} The plan is stuck: these open items wait on each other, so none of them can ever be dispatched. Mend the plan within its bounds so the run can go on.`,
    ...briefSections(plan),
    section('Stuck items', stuck.map((node) => `Item ${node.index} (${node.id}): ${node.text}${node.needs.length > 0 ? ` (needs ${node.needs.join(', ')})` : ''}`).join('\n')),
    section(
      'Answer',
      `amendments: a fenced \`\`\`leopold-amend block of ${lines}: ${AMEND_BOUNDS} "" if no bounded change unsticks the plan (the run then stops with deadlock); summary.`,
    ),
  ].join('\n\n');
}

/** The persona synthesis prompt at one fork (docs/decisions.md), with the plan's lifted rules. */
export { personaPromptWithRules } from '../persona/prompt-text.js';

export function decidePrompt(plan: EmbeddedPlan, node: EmbeddedItem, persona: PersonaAnswer | null, fork: 'human' | 'escalation', question: string, evidence = ''): string {
  return [
    roleLine(persona, 'No role could be synthesized for this decision: decide under the default worker prompt.'),
    ...briefSections(plan),
    itemSection(node),
    ...evidenceSection(evidence),
    section(fork === 'human' ? 'A @human node: you stand in for the person' : 'An escalated fork to settle against the charter', question),
    section(
      'Answer',
      [
        'Decide, then do the work the decision calls for. Answer one DECISIONS.md entry: title, class (reversible | irreversible),',
        'charter (the rule that decided it, verbatim, or "silent"), decision, why (the principle or rule), reversal (how to undo it, concretely), summary.',
        'An irreversible decision the charter is silent on is not yours to make: answer it as irreversible with charter "silent" and the run stops to ask.',
      ].join('\n'),
    ),
    ...(fork === 'human' ? signalsSection(node) : []),
  ].join('\n\n');
}

export function rescuePrompt(plan: EmbeddedPlan, item: EmbeddedItem, persona: PersonaAnswer | null, evidence: readonly string[]): string {
  return [
    roleLine(persona, 'No role could be synthesized for this rescue: answer under the default worker prompt.'),
    ...briefSections(plan),
    itemSection(item),
    section('The same kind of failure keeps happening', bullets(evidence)),
    section('Answer', 'approach: one genuinely different approach for the next attempt (not a retry of the last one). The next attempt runs under it.'),
  ].join('\n\n');
}
