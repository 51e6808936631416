import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { diagnosticHead } from '../diagnostics/render-text.js';
import { AMENDMENT_BUDGET, MAX_ADD_TEXT } from '../../runtime/amend/index.js';

/** What the repair prompt is built from. */
export interface RepairPromptInput {
  /** PLAN.md as the user named it. */
  file: string;
  planText: string;
  /** The plan's diagnostics (errors and warnings), sorted. */
  diagnostics: readonly Diagnostic[];
  /** Plan changes already spent this run (state.json `amendments_used`). */
  used: number;
}

/**
 * The prompt a `--repair-cmd` receives on stdin (and the `/leopold-workflow` skill hands its
 * agent): the diagnostics, the numbered plan, the two verbs and every bound, and the answer
 * format. Pure; the same input gives the same bytes.
 */
export function repairPrompt({ file, planText, diagnostics, used }: RepairPromptInput): string {
  const left = Math.max(0, AMENDMENT_BUDGET - used);
  const lines = planText.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  const width = String(lines.length).length;
  const errors = diagnostics.filter((d) => d.severity === 'error');
  return [
    `The Leopold plan ${file} does not validate (${errors.length} error${errors.length === 1 ? '' : 's'}). Propose the smallest repair`,
    'that makes it valid, within the bounds below. Your answer is judged mechanically: a repair that',
    'breaks any bound, or that leaves any error, is refused as a whole and the plan is not changed.',
    '',
    '## Diagnostics',
    '',
    ...diagnostics.map((d) => diagnosticHead({ ...d, message: d.message.replace(/\s+/g, ' ') })),
    '',
    `## The plan (${file}), with line numbers`,
    '',
    ...lines.map((line, i) => `${String(i + 1).padStart(width)} | ${line}`),
    '',
    '## What you may propose (one proposal per line)',
    '',
    '- `ROUTE <item> <condition> -> <target>`: re-point a route that item <item> already declares',
    '  (its `@on <condition> -> …` line) at an item that exists. <item> and <target> are an index',
    '  (1-based, counting every task item, done ones too) or `#anchor`; <condition> as written',
    '  in the @on line (`fail`, `exit!=0`, `format=json`).',
    `- \`ADD [(after: N, …)] <text>\`: append one plain work item at the end of the plan (it gets the`,
    '  next index, so no existing index moves). Use it to add the item that emits a missing',
    '  `@needs` key, or that a dangling route should reach.',
    '',
    '## Bounds (judged in this order; the first one a proposal breaks refuses the repair)',
    '',
    `- add-budget: at most ${AMENDMENT_BUDGET} changes per run; ${left} left now.`,
    '- no-delete: nothing is deleted.',
    '- no-touch-done: done (`[x]`) items are not changed, ticked or unticked.',
    '- no-guardrails: GUARDRAILS.md and its limits are never mentioned or changed.',
    '- add-only: existing text is never edited (only ROUTE targets change).',
    '- work-only: an ADD text does not start with a kind or other marker (`@gate`, `@emit`, …).',
    `- malformed: no empty ADD, at most ${MAX_ADD_TEXT} characters, valid (after:) references, a route the`,
    '  item really declares, a target in range.',
    '- repair-only: ROUTE is only for repairs like this one.',
    '',
    '## Answer format',
    '',
    'Optionally one line naming the plan-engineer role you took, as',
    '`Persona: <name> — <role> (<expertise>; <expertise>)`. Then one fenced block; if you write',
    'several, only the last one counts:',
    '',
    '```leopold-amend',
    'ROUTE 4 fail -> 6',
    'ADD (after: 3) Write the release notes the sign-off needs',
    '```',
    '',
  ].join('\n');
}
