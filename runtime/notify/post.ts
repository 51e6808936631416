import { maskSecrets } from './mask.js';
import type { NotifyPayload } from './payload.js';

/** How a POST went: `ok` on a 2xx answer; `status` when the server answered; `error` otherwise. */
export interface NotifyResult {
  ok: boolean;
  status?: number;
  error?: string;
}

/** The default bound on one POST, in milliseconds: a notification must never hold up a run's end. */
export const NOTIFY_TIMEOUT_MS = 3000;

/**
 * POSTs the payload as JSON to the webhook, best effort: bounded by `timeoutMs` (the
 * request is aborted, and a backstop timer answers even if the abort itself stalls), and
 * it never throws. No fs, no node imports: only the global fetch (Node 20).
 */
export async function postNotification(
  url: string,
  payload: NotifyPayload,
  { timeoutMs = NOTIFY_TIMEOUT_MS }: { timeoutMs?: number } = {},
): Promise<NotifyResult> {
  let backstop: ReturnType<typeof setTimeout> | undefined;
  // Not unref'd on purpose: while the POST is pending, the process must stay to answer.
  const late = new Promise<NotifyResult>((resolve) => {
    backstop = setTimeout(() => resolve({ ok: false, error: `no answer within ${timeoutMs} ms` }), timeoutMs + 250);
  });
  try {
    return await Promise.race([attempt(url, payload, timeoutMs), late]);
  } finally {
    clearTimeout(backstop);
  }
}

async function attempt(url: string, payload: NotifyPayload, timeoutMs: number): Promise<NotifyResult> {
  try {
    const protocol = new URL(url).protocol;
    if (protocol !== 'http:' && protocol !== 'https:') return { ok: false, error: `not an http(s) URL (${protocol})` };
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(payload),
      signal: AbortSignal.timeout(timeoutMs),
    });
    // The answer's body is not wanted; release the connection now.
    await response.body?.cancel().catch(() => undefined);
    return response.ok ? { ok: true, status: response.status } : { ok: false, status: response.status, error: `HTTP ${response.status}` };
  } catch (error) {
    return { ok: false, error: maskSecrets(describeFailure(error, timeoutMs)) };
  }
}

// fetch says only "fetch failed"; the cause (ECONNREFUSED, ENOTFOUND, …) is what helps.
function describeFailure(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return `no answer within ${timeoutMs} ms`;
  const cause = error instanceof Error ? (error.cause as { code?: unknown; message?: unknown } | undefined) : undefined;
  if (typeof cause?.code === 'string') return `${error instanceof Error ? error.message : 'failed'}: ${cause.code}`;
  if (typeof cause?.message === 'string') return cause.message;
  return error instanceof Error ? error.message : String(error);
}
