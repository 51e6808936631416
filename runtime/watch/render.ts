import { apiErrorOf } from '../api-error/index.js';
import { ownerOf, shortSession } from '../owner/index.js';
import { failuresText } from '../run/index.js';
import type { WatchView } from './model.js';

const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();
/** ` "text"` (cut to `max`), or nothing when the plan does not name the item (yet). */
const quoted = (s: string, max: number) => {
  const text = oneLine(s);
  return text === '' ? '' : ` "${text.length > max ? `${text.slice(0, max - 1)}…` : text}"`;
};
const grouped = (n: number) => String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** `[████████░░░░░░░░░░░░]` for done of total, `width` cells. */
export function progressBar(done: number, total: number, width = 24): string {
  const filled = total === 0 ? 0 : Math.round((done / total) * width);
  return `[${'█'.repeat(filled)}${'░'.repeat(width - filled)}]`;
}

/** Done and total items, when the plan could be read. */
function progress(view: WatchView): { done: number; total: number } | null {
  return view.items === null ? null : { done: view.items.filter((item) => item.done).length, total: view.items.length };
}

/** The item being worked on and its attempt, when an event says which. */
function current(view: WatchView): { item: number; text: string; attempt: number } | null {
  const at = view.events.current;
  if (at === null) return null;
  const text = view.items?.find((item) => item.index === at.item)?.text ?? '';
  return { item: at.item, text, attempt: view.events.attempts[at.item] ?? 1 };
}

/** The stop, once the run has one: the condition and its one-line why. */
function stopOf(view: WatchView): { reason: string; detail: string } | null {
  const state = view.state;
  if (state === null || state.active) return null;
  const reason = state.stop_reason ?? view.events.stop?.reason ?? 'finished';
  return { reason, detail: view.events.stop?.reason === reason ? view.events.stop.detail : '' };
}

/**
 * The terminal frame: a progress bar of items done, the item being worked on and its
 * attempt, the turn, failures, agents and tokens where known, the last decisions, and the
 * stop when it comes. Lines are cut to `width`. Pure.
 */
export function renderFrame(view: WatchView, width = 100): string[] {
  const lines: string[] = [];
  const state = view.state;
  if (state === null) {
    lines.push(view.problem ? `No usable run state: state.json is ${view.problem}.` : 'No run state (.leopold/state.json does not exist).');
    return lines.map((line) => line.slice(0, width));
  }
  const owner = state.engine === 'session' ? ownerOf(state) : null;
  lines.push(
    `Leopold run · ${state.active ? 'active' : 'ended'} · ${state.engine} engine · started ${state.started_at ?? '-'}${owner ? ` · session ${shortSession(owner.session)}` : ''}`,
  );
  const p = progress(view);
  lines.push(p ? `${progressBar(p.done, p.total)} ${p.done}/${p.total} items done` : 'Plan: PLAN.md cannot be read');
  const now = current(view);
  const turn = Math.max(state.iteration, view.events.iteration);
  if (state.active) {
    lines.push(
      now
        ? `Now: item ${now.item}${quoted(now.text, 60)} · attempt ${now.attempt} · turn ${turn} of at most ${view.maxIterations}`
        : `Now: waiting for the first item · turn ${turn} of at most ${view.maxIterations}`,
    );
  }
  const failures = Object.values(state.failures).reduce((sum, n) => sum + n, 0) || view.events.failures;
  lines.push(
    `Failures: ${failures === 0 ? 'none' : `${failures}${Object.keys(state.failures).length > 0 ? ` (${failuresText(state.failures)})` : ''}`}` +
      ` · streak ${state.consecutive_failures.count} · rescue used: ${state.rescue_used ? 'yes' : 'no'} · plan changes: ${state.amendments_used}/3`,
  );
  if (view.events.agents !== null || view.events.tokens !== null) {
    lines.push([view.events.agents !== null ? `Agents: ${grouped(view.events.agents)}` : null, view.events.tokens !== null ? `tokens: ${grouped(view.events.tokens)}` : null].filter(Boolean).join(' · '));
  }
  lines.push(`Decisions: ${view.decisions.length}${view.decisions.length > 0 ? ' (last ones below)' : ''}`);
  for (const d of view.decisions.slice(-3)) lines.push(`  D${d.n} ${oneLine(d.title)}`);
  const stop = stopOf(view);
  if (stop) {
    lines.push(`Stopped: ${stop.reason}${stop.detail ? ` · ${oneLine(stop.detail)}` : ''}`);
    const failed = apiErrorOf(state);
    if (failed) lines.push(`Resume: ${failed.retryable ? 'when the API answers again' : 'once that is fixed'}, run ${state.engine === 'workflow' ? '/leopold-workflow' : '/leopold-run'} in Claude Code`);
  }
  return lines.map((line) => (line.length > width ? `${line.slice(0, width - 1)}…` : line));
}

/**
 * What changed from `before` to `after`, as plain lines for a log (stdout that is not a
 * terminal): a run starting, progress, the item handed out, new decisions, agents and
 * tokens (the stop is `stopLine`, written once the watch ends). Nothing when nothing
 * changed. Pure.
 */
export function changeLines(before: WatchView | null, after: WatchView): string[] {
  const lines: string[] = [];
  const state = after.state;
  if (state === null) {
    if (before?.state !== null || before === null) lines.push(renderFrame(after)[0]!);
    return lines;
  }
  const newRun = before?.state?.started_at !== state.started_at;
  if (newRun || before === null) lines.push(`run ${state.active ? 'active' : 'ended'} · ${state.engine} engine · started ${state.started_at ?? '-'}`);
  const was = before && !newRun ? progress(before) : null;
  const is = progress(after);
  if (is && (was === null || was.done !== is.done || was.total !== is.total)) lines.push(`progress ${progressBar(is.done, is.total, 10)} ${is.done}/${is.total} items done`);
  const then = before && !newRun ? current(before) : null;
  const now = current(after);
  if (now && (then === null || then.item !== now.item || then.attempt !== now.attempt)) {
    lines.push(`turn ${Math.max(state.iteration, after.events.iteration)}: item ${now.item}${quoted(now.text, 60)} (attempt ${now.attempt})`);
  }
  const seen = new Set((before && !newRun ? before.decisions : []).map((d) => d.n));
  for (const d of after.decisions) if (!seen.has(d.n)) lines.push(`decision D${d.n}: ${oneLine(d.title)}`);
  const spent = (v: WatchView | null) => (v ? `${v.events.agents ?? ''}/${v.events.tokens ?? ''}` : '');
  if ((after.events.agents !== null || after.events.tokens !== null) && spent(before) !== spent(after)) {
    lines.push([after.events.agents !== null ? `agents ${grouped(after.events.agents)}` : null, after.events.tokens !== null ? `tokens ${grouped(after.events.tokens)}` : null].filter(Boolean).join(' · '));
  }
  return lines;
}

/** The last plain line: how the run stopped, or null while it has not. Pure. */
export function stopLine(view: WatchView): string | null {
  const stop = stopOf(view);
  const p = progress(view);
  return stop ? `stopped: ${stop.reason}${stop.detail ? ` · ${oneLine(stop.detail)}` : ''}${p ? ` · ${p.done}/${p.total} items done` : ''}` : null;
}
