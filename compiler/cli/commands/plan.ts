import type { Command } from 'commander';
import { planItems, rememberItems } from '../../../runtime/plan/items-cache.js';
import { resolveRef } from '../../../runtime/plan/refs.js';
import { tickBytes } from '../../../runtime/plan/tick.js';
import { dirname } from 'node:path';
import { recordEvents } from '../../../runtime/decisions/events.js';
import { checkTick } from '../../../runtime/verify/receipt.js';
import { locatePlan } from '../io.js';
import { rewritePlan } from '../plan-writer.js';

/** What `leopold plan tick --json` prints, and the exit code. */
export interface TickOutcome {
  ack: { ok: boolean; item: number | null; changed: boolean; message: string };
  code: 0 | 1;
}

/**
 * Marks item `ref` (N, #N or #anchor) done in the plan at `planPath`: one byte changes,
 * written atomically through the one PLAN.md writer (under `PLAN.md.lock`), so a tick never
 * loses, or is lost to, another tick, an amendment or compile's repair.
 */
export async function tickPlan(planPath: string, ref: string, options: { unverified?: boolean } = {}): Promise<TickOutcome> {
  const leopoldDir = dirname(planPath);
  const outcome = await rewritePlan(planPath, async ({ bytes, text, write }): Promise<TickOutcome> => {
    // The parse is kept beside PLAN.md (runtime/plan/items-cache.ts): a scribe's tick after a
    // tick, or after a Stop-hook turn, never loads the Markdown parser.
    const items = await planItems(planPath, text);
    const index = resolveRef({ file: planPath, items, strays: [], legacyItemLines: [] }, ref);
    const item = index === null ? undefined : items[index - 1];
    if (!item) {
      const message = `no item ${ref} in the plan (it has ${items.length} item${items.length === 1 ? '' : 's'})`;
      return { ack: { ok: false, item: null, changed: false, message }, code: 1 };
    }
    const result = tickBytes(bytes, text, item);
    if (!result.changed) {
      return { ack: { ok: true, item: item.index, changed: false, message: `item ${item.index} is already done` }, code: 0 };
    }
    // Done means verified: during a run a work item needs a receipt matching the tree (runtime/verify).
    const verdict = options.unverified ? null : await checkTick(leopoldDir, item);
    if (verdict !== null && !verdict.ok) return { ack: { ok: false, item: item.index, changed: false, message: verdict.message }, code: 1 };
    write(result.bytes);
    // One byte changed inside the checkbox: every span stays, only this item is done now.
    rememberItems(planPath, result.bytes.toString('utf8'), items.map((other) => (other.index === item.index ? { ...other, done: true } : other)));
    return { ack: { ok: true, item: item.index, changed: true, message: `ticked item ${item.index}: ${clip(item.text)}` }, code: 0 };
  });
  // A person's tick without a receipt stays on the record (the guard refuses the flag to an agent).
  if (options.unverified && outcome.ack.changed) await recordEvents(leopoldDir, [{ event: 'unverified-tick', item: outcome.ack.item }], () => new Date());
  return outcome;
}

function clip(text: string): string {
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}

/**
 * `leopold plan tick N|#anchor [--plan FILE] [--json]`: mark one item done, changing only its
 * checkbox byte. Returns the `plan` command: main.ts adds `leopold plan amend` (plan-amend.ts)
 * to it, except for `plan tick`, which then loads nothing of the amendment judge.
 */
export function registerPlan(program: Command): Command {
  const plan = program.command('plan').description('Change PLAN.md through its single writer');
  plan
    .command('tick')
    .description('Mark item N (or #anchor) done: only its checkbox byte changes; exit 1 when there is no such item, or, during a run, when a work item has no passing verification after its last edit')
    .argument('<item>', 'item index (1-based), #N or #anchor')
    .option('--plan <file>', 'the plan file (default: the nearest .leopold/PLAN.md)')
    .option('--json', 'print the acknowledgement as one JSON line')
    .option('--unverified', 'tick a work item during a run without a passing verification after its last edit (yours to give, from your terminal; recorded)')
    .action(runTick);
  return plan;
}

/** The `leopold plan tick` action (main.ts also runs it directly for the plain spellings). */
export async function runTick(ref: string, options: { plan?: string; json?: boolean; unverified?: boolean }): Promise<void> {
  const path = locatePlan(process.cwd(), options.plan);
  const outcome = await tickPlan(path, ref, { unverified: options.unverified === true });
  if (options.json) process.stdout.write(`${JSON.stringify(outcome.ack)}\n`);
  else if (outcome.code === 0) process.stdout.write(`${outcome.ack.message}\n`);
  else process.stderr.write(`leopold: ${outcome.ack.message}\n`);
  process.exitCode = outcome.code;
}
