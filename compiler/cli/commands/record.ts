import type { Command } from 'commander';
import { findBriefDir } from '../../brief/find.js';
import { decodeBase64Option } from '../io.js';
import { ioFailureLine } from '../io-error.js';
// The writer's modules one by one, not the runtime/decisions barrel: a scribe runs this
// command on every write, and the barrel would load zod (schema.ts) for nothing.
import { appendDecisions } from '../../../runtime/decisions/append.js';
import { recordEvents } from '../../../runtime/decisions/events.js';
import { DecisionRefusedError, refusalOf, stopAndAskQuestion, type Refusal } from '../../../runtime/decisions/protocol.js';
import { describeRecordIssues, parseRecordInput } from '../../../runtime/decisions/record-input.js';
import type { DecisionInput, EventInput } from '../../../runtime/decisions/schema.js';
import { dirname, join, relative } from 'node:path';
import { apiErrorIn, type ApiErrorFact } from '../../../runtime/api-error/index.js';
import { readOptionalFile } from '../../../runtime/fs/read.js';

/**
 * What `leopold record` prints: one JSON line (docs/decisions.md). `api_error`: the API
 * error an agent of the active workflow run died on (state.json, written by the StopFailure
 * hook), so the workflow's scribe hands it to the script.
 */
export type RecordAck = { ok: true; numbers: number[]; path?: string; events?: number; api_error?: ApiErrorFact } | { ok: false; error: string };

/** The ack and the exit code: 0 recorded, 1 refused (the schema or the protocol), 2 no input, not JSON, or an I/O failure. */
export interface RecordOutcome {
  ack: RecordAck;
  code: 0 | 1 | 2;
}

// The ack names DECISIONS.md relative to the project root, the same wherever the command
// ran from, so the workflow's scribe check can compare it literally.
const ACK_PATH = '.leopold/DECISIONS.md';

const unusable = (error: string): RecordOutcome => ({ ack: { ok: false, error }, code: 2 });

/**
 * Records one JSON document (decisions and/or events) into the `.leopold/` found from
 * `cwd`. All or nothing per invocation: every entry is validated and protocol-checked
 * before anything is written.
 */
export async function recordDocument(raw: string, cwd: string, now: () => Date = () => new Date()): Promise<RecordOutcome> {
  if (raw.trim() === '') return unusable('no input: pass one JSON document on stdin or with --base64');
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (error) {
    return unusable(`input is not valid JSON (${(error as Error).message})`);
  }
  const parsed = parseRecordInput(json);
  // A document that parses but breaks the schema (a wrong type, a placeholder left in) is
  // refused like a protocol refusal: the entry is the agent's to correct, nothing is written.
  if (!parsed.success) return { ack: { ok: false, error: `refused: ${describeRecordIssues(parsed.issues)}` }, code: 1 };
  const refusal = refusalOf(parsed.data.decisions);
  if (refusal) return { ack: { ok: false, error: await escalateRefusal(refusal, cwd, now) }, code: 1 };
  const leopoldDir = findBriefDir(cwd);
  if (!leopoldDir) return unusable(`no .leopold/ directory at or above ${cwd}`);
  try {
    const numbers = await appendDecisions(leopoldDir, parsed.data.decisions, now);
    await recordEvents(leopoldDir, await stampReceipts(leopoldDir, parsed.data.events), now);
    // The ack says what was written: DECISIONS.md only when a decision went there (an
    // events-only document named it, and a model read that as a decision recorded).
    const events = parsed.data.events.length;
    const failed = workflowApiError(leopoldDir);
    return { ack: { ok: true, numbers, ...(numbers.length > 0 ? { path: ACK_PATH } : {}), ...(events > 0 ? { events } : {}), ...(failed ? { api_error: failed } : {}) }, code: 0 };
  } catch (error) {
    if (error instanceof DecisionRefusedError) return { ack: { ok: false, error: error.message }, code: 1 };
    // One line naming the file and the cause, relative to where the command ran (as every command says it).
    return unusable(ioFailureLine(error, cwd) ?? `could not write to ${relative(cwd, leopoldDir) || '.'}: ${(error as Error).message}`);
  }
}

// state.json is a few KiB; past this it is not one, and the record does not read it.
const MAX_STATE_BYTES = 4 * 1024 * 1024;

/**
 * The API error an agent of the active workflow run died on, as state.json keeps it (the
 * StopFailure hook writes it there; docs/hooks.md, "API errors"), or null: no active
 * workflow run, none recorded, or a state that cannot be read (the record never fails on
 * it). Read raw, without the state's zod schema: a scribe runs this on every write.
 */
function workflowApiError(leopoldDir: string): ApiErrorFact | null {
  try {
    const bytes = readOptionalFile(join(leopoldDir, 'state.json'), MAX_STATE_BYTES);
    const state = bytes === null ? null : (JSON.parse(bytes.toString('utf8')) as unknown);
    if (state === null || typeof state !== 'object' || Array.isArray(state)) return null;
    const { active, engine } = state as Record<string, unknown>;
    if (active !== true || engine !== 'workflow') return null;
    const found = apiErrorIn(state);
    return found ? { error: found.error, retryable: found.retryable } : null;
  } catch {
    return null;
  }
}

/**
 * A `verified` event is a receipt: it carries the working tree's fingerprint as it is now,
 * taken here (never given), which `leopold plan tick` compares with the tree's when it ticks.
 */
async function stampReceipts(leopoldDir: string, events: readonly EventInput[]): Promise<EventInput[]> {
  if (!events.some((e) => e.event === 'verified')) return [...events];
  // Loaded only for a receipt: a plain record loads neither node:crypto nor git.
  const { treeFingerprint } = await import('../../../runtime/verify/fingerprint.js');
  const fingerprint = treeFingerprint(dirname(leopoldDir));
  return events.map((e) => (e.event === 'verified' ? { ...e, fingerprint } : e));
}

/**
 * An irreversible decision on a silent charter is the protocol's one mandatory stop: the
 * refusal itself records the `escalation` event for that entry's item, so the Stop hook ends
 * the run with `escalation` (naming the item) whatever the session does next, as the
 * workflow stops at once. refusalOf answers with such a refusal first, so the message
 * names the entry escalated. Other refusals are the agent's to correct (a missing why, a
 * fork written as mechanical), so they record nothing. Returns the refusal as the ack says it.
 */
async function escalateRefusal(refusal: Refusal & { entry: DecisionInput }, cwd: string, now: () => Date): Promise<string> {
  const { entry } = refusal;
  const leopoldDir = refusal.stopAndAsk && typeof entry.item === 'number' ? findBriefDir(cwd) : null;
  if (leopoldDir === null || typeof entry.item !== 'number') return refusal.message;
  try {
    await recordEvents(leopoldDir, [{ event: 'escalation', item: entry.item, question: stopAndAskQuestion(entry.title) }], now);
  } catch {
    return refusal.message; // the refusal stands; the session reports the escalation itself, as its instructions say
  }
  return `${refusal.message} The escalation for item ${entry.item} is recorded: end your turn; the run stops with escalation and the user decides.`;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

/** `leopold record [--base64 <text>]`: the single writer's CLI face for decisions and events. */
export function registerRecord(program: Command): void {
  program
    .command('record')
    .description('Append decisions and events from one JSON document (stdin or --base64) and print an ack')
    .option('--base64 <text>', 'the JSON document, base64-encoded (instead of stdin)')
    .action(runRecord);
}

/** The `leopold record` action (main.ts also runs it directly for the plain spellings). */
export async function runRecord(options: { base64?: string }): Promise<void> {
  let raw: string;
  if (options.base64 !== undefined) {
    const decoded = decodeBase64Option(options.base64);
    if (!decoded.ok) {
      process.stdout.write(`${JSON.stringify({ ok: false, error: decoded.error })}\n`);
      process.exitCode = 2;
      return;
    }
    raw = decoded.text;
  } else if (process.stdin.isTTY) {
    raw = '';
  } else {
    raw = await readStdin();
  }
  const outcome = await recordDocument(raw, process.cwd());
  process.stdout.write(`${JSON.stringify(outcome.ack)}\n`);
  process.exitCode = outcome.code;
}
