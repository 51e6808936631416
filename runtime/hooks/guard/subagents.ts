import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readEventLog } from '../../decisions/events.js';
import { parseGuardrailSettings } from '../../guardrails/index.js';
import { subagentCap, type RunModel } from '../../run/index.js';

/**
 * The tools through which a session starts a subagent: `Agent` in Claude Code 2.1.x (the
 * client this project pins), `Task` in older clients (docs/hooks.md). templates/settings
 * registers the guard for both.
 */
export const SUBAGENT_TOOLS: ReadonlySet<string> = new Set(['Agent', 'Task']);

/** The guard's answer to a subagent spawn: allow (and it was counted), or deny with why. */
export type SpawnVerdict = { allow: true } | { allow: false; reason: string };

/**
 * A Task/Agent call in an active session run (docs/guardrails.md `max_subagents`): counts
 * the spawn for the item the Stop hook handed out (a `subagent` event, which the next Stop
 * folds into the run model), or, when the item or the run has reached its cap, refuses it
 * and logs `subagent-cap` (the next Stop stops the run with `subagent_cap`). The count so
 * far is state.json's (up to the last Stop) plus the `subagent` events logged since that
 * dispatch. Null (no opinion) when no session run has an item out (a workflow run, a run
 * between items, an unreadable state) or when `session` is not the run's owner: another
 * Claude Code session in the project works for itself, not for the run (docs/runtime.md,
 * one owner per run), so its subagents are not the run's. Throws only on I/O the caller
 * fails closed on.
 */
export function subagentSpawn(leopoldDir: string, now: Date, session: string | null): SpawnVerdict | null {
  const state = readJson(join(leopoldDir, 'state.json'));
  if (state === null || state.active !== true || state.engine !== 'session') return null;
  const owner = (state.owner as { session?: unknown } | null | undefined)?.session;
  if (session !== null && typeof owner === 'string' && owner !== '' && owner !== session) return null;
  const pending = (state.hook as { pending?: { item?: unknown; offset?: unknown } } | undefined)?.pending;
  if (!pending || typeof pending.item !== 'number' || typeof pending.offset !== 'number') return null;
  const item = pending.item;
  const seen = (state.subagents as RunModel['subagents'] | undefined) ?? { total: 0, by_item: {} };
  const since = readEventLog(leopoldDir, pending.offset).events.filter((e) => e.event === 'subagent' && e.item === item).length;
  const model = { subagents: { total: seen.total + since, by_item: { ...seen.by_item, [String(item)]: (seen.by_item[String(item)] ?? 0) + since } } };
  const { guardrails } = parseGuardrailSettings(readText(join(leopoldDir, 'GUARDRAILS.md')));
  const capped = subagentCap(model, guardrails, item);
  const line = capped ? { event: 'subagent-cap', item, detail: capped.detail } : { event: 'subagent', item };
  appendFileSync(join(leopoldDir, 'events.jsonl'), `${JSON.stringify({ ts: now.toISOString(), ...line })}\n`);
  if (!capped) return { allow: true };
  return {
    allow: false,
    reason: `Leopold: no further subagent: ${capped.detail}. The run stops with subagent_cap when this turn ends; finish what you can without subagents and report it.`,
  };
}

function readJson(path: string): Record<string, unknown> | null {
  try {
    const value = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

// A missing GUARDRAILS.md (or the sandbox's placeholder for one) reads as empty: every default.
function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}
