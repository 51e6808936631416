import { recordEvents } from '../decisions/events.js';
import { runEndPayload } from './payload.js';
import { postNotification, type NotifyResult } from './post.js';

/**
 * Posts an end-of-run report to GUARDRAILS' `notify_webhook` (nothing when it is `none`)
 * and records a `notify` event with how it went. Never throws: a webhook that is down,
 * slow or refusing, or an event log that cannot be written, never changes how a run ends.
 */
export async function notifyRunEnded(
  leopoldDir: string,
  webhook: string,
  report: string,
  now: () => Date = () => new Date(),
  options: { timeoutMs?: number } = {},
): Promise<NotifyResult | null> {
  if (webhook === 'none') return null;
  const result = await postNotification(webhook, runEndPayload(report), options);
  try {
    await recordEvents(leopoldDir, [{ event: 'notify', ...result }], now, { timeoutMs: 1000 });
  } catch {
    // the log cannot be written (read-only .leopold/, a held lock): the POST still happened
  }
  return result;
}
