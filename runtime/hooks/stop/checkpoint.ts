import { AMENDMENT_BUDGET } from '../../amend/limits.js';
import type { PlanItem } from '../../plan/schema.js';
import type { RunState } from '../../run/index.js';
import type { StopLimits } from '../../run/index.js';

/** Where the resume note lives, relative to the project root (never an absolute path: the note is deterministic). */
export const CHECKPOINT_PATH = '.leopold/CHECKPOINT.md';
/** How many of the run's latest decisions the note lists (the full trail is DECISIONS.md). */
export const CHECKPOINT_DECISIONS = 5;

/** Why the window closed: the hook rolled it, or a Stop came from another session. */
export type WindowCloseCause = 'context_budget' | 'new_session';

/** What the resume note is written from: plain values, no clock (the same run state gives the same bytes). */
export interface CheckpointInput {
  /** The run state after the window closed (`windows` already counts it). */
  state: RunState;
  items: readonly PlanItem[];
  /** The item the hook hands out next (at the next window's first Stop, or now). */
  next: PlanItem | null;
  limits: StopLimits;
  cause: WindowCloseCause;
  /** Items the closed window finished. */
  closedItems: number;
  /** The run's latest decisions, oldest first (at most CHECKPOINT_DECISIONS are shown). */
  decisions: readonly { n: number; title: string }[];
}

const itemLine = (item: PlanItem) => `item ${item.index}: ${item.kind === 'work' ? '' : `@${item.kind}${item.label ? ` (${item.label})` : ''} `}${item.text}`;

/**
 * `.leopold/CHECKPOINT.md`: the compact resume note a context window leaves for the next
 * one (docs/runtime.md, `context_budget`): the run's counters, items done and open, the
 * next item, the latest decisions, open failures, and how to continue. Pure.
 */
export function renderCheckpoint(input: CheckpointInput): string {
  const { state, items, next, limits } = input;
  const window = state.windows;
  const done = items.filter((item) => item.done);
  const open = items.filter((item) => !item.done);
  const failures = Object.entries(state.failures).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const failed = failures.reduce((sum, [, n]) => sum + n, 0);
  const why =
    input.cause === 'context_budget'
      ? `the session transcript passed max_context_mb (${limits.maxContextMb} MB)`
      : 'a Stop came from a new session';

  const lines = [
    '# Leopold checkpoint',
    '',
    `Context window ${window} of at most ${limits.maxWindows} closed: ${why}. It closed ${input.closedItems} item${input.closedItems === 1 ? '' : 's'}.`,
    'The run is still active: continue it, do not start a new one.',
    '',
    '## Run',
    '',
    `- Engine: ${state.engine} · started: ${state.started_at ?? '-'}`,
    `- Turns: ${state.iteration} of at most ${limits.maxIterations} · turns without a plan change: ${state.no_progress} (limit ${limits.maxNoProgress})`,
    `- Windows closed: ${window} of at most ${limits.maxWindows} · in a row without closing an item: ${state.windows_without_progress} (the run stops at 2)`,
    `- Failures: ${failed}${failures.length > 0 ? ` (${failures.map(([kind, n]) => `${kind}: ${n}`).join(', ')})` : ''} · rescue used: ${state.rescue_used ? 'yes' : 'no'} · plan changes: ${state.amendments_used}/${AMENDMENT_BUDGET}`,
    '',
    `## Items: ${done.length} of ${items.length} done`,
    '',
    `Done: ${done.length > 0 ? done.map((item) => item.index).join(', ') : 'none'}`,
    '',
    ...(open.length > 0 ? ['Open:', ...open.map((item) => `- ${itemLine(item)}`)] : ['Open: none']),
    '',
    '## Next',
    '',
    next ? `Item ${itemLine(next).slice('item '.length)}` : 'none: the next Stop decides how the run ends',
    '',
    '## Recent decisions',
    '',
    ...(input.decisions.length > 0
      ? input.decisions.slice(-CHECKPOINT_DECISIONS).map((d) => `- D${d.n} ${d.title}`)
      : ['none']),
    ...(input.decisions.length > CHECKPOINT_DECISIONS ? [`(${input.decisions.length} this run; all of them in .leopold/DECISIONS.md)`] : []),
    '',
    '## Open failures',
    '',
    ...openFailures(state, items, limits),
    '',
    '## Continue',
    '',
    'Start a fresh Claude Code session in this project and run /leopold-run. It resumes this run:',
    `read this file, end your first turn, and the Stop hook hands out ${next ? `item ${next.index}` : 'what comes next'}.`,
    'Never run `leopold run start --force` to continue: it discards the run.',
  ];
  return `${lines.join('\n')}\n`;
}

// The current failure streak, the rescue it bought, and items that finished failed and are still open.
function openFailures(state: RunState, items: readonly PlanItem[], limits: StopLimits): string[] {
  const out: string[] = [];
  const streak = state.consecutive_failures;
  if (streak.kind !== null && streak.count > 0) {
    out.push(`- Failure streak: ${streak.count} consecutive ${streak.kind} failure${streak.count === 1 ? '' : 's'} (ceiling ${limits.maxFailures})`);
  }
  if (state.rescue_for) out.push(`- Rescue granted for ${state.rescue_for.failures} ${state.rescue_for.kind} failures: the next attempt takes a different approach`);
  const left = items.filter((item) => !item.done && state.routing.statuses[String(item.index)] === 'fail').map((item) => item.index);
  if (left.length > 0) out.push(`- Finished failed and left open: item${left.length === 1 ? '' : 's'} ${left.join(', ')}`);
  return out.length > 0 ? out : ['none'];
}
