/**
 * runtime/api-error: a session run that a turn's API error ended (the `api_error` stop,
 * docs/runtime.md). Claude Code fires `StopFailure`, not `Stop`, when an API error ends a
 * turn; its `error` field names the kind. Measured on 2.1.332 against the scripted model
 * with retries off: HTTP 429 → `rate_limit`, 500 and 529 → `server_error`, 401 →
 * `authentication_failed`, a plain 400 → `unknown`; the client's own list also has
 * `overloaded`, `oauth_org_not_allowed`, `account_on_hold`, `verification_required`,
 * `billing_error`, `invalid_request`, `model_not_found`, `max_output_tokens`,
 * `cloud_credential_error`. Pure, and free of the run kernel (the kernel's `api_error` stop
 * words its detail with apiErrorDetail).
 */

/** The stop reason an API error ends a session run with. */
export const API_ERROR_STOP = 'api_error';

/** What state.json keeps under `api_error` when one ended the run. */
export interface ApiErrorRecord {
  /** The client's `error` kind, as it sent it (bounded, one line). */
  error: string;
  /** Whether waiting and resuming can help (a transient refusal), or something must be fixed first. */
  retryable: boolean;
  /** ISO-8601 UTC. */
  at: string;
}

/** The kinds a retry can outlast: the API refused for now, not for good. */
const TRANSIENT = new Set(['rate_limit', 'overloaded', 'server_error']);

/** What each kind means, and what to do before resuming. */
const MEANING: Readonly<Record<string, string>> = {
  rate_limit: 'the API rate-limited this session (HTTP 429); wait for the limit to reset',
  overloaded: 'the API is overloaded; wait a moment',
  server_error: 'the API answered with a server error (HTTP 500 or 529); it is usually brief, so wait a moment',
  authentication_failed: 'the API refused the credentials (HTTP 401); log in again (`claude /login`, or fix ANTHROPIC_API_KEY)',
  oauth_org_not_allowed: 'the account\'s organisation may not use this client; switch accounts (`claude /login`)',
  account_on_hold: 'the account is on hold; settle it with Anthropic first',
  verification_required: 'the account needs verifying; finish it in the browser first',
  billing_error: 'the API refused for billing reasons; settle the account or raise its limit first',
  invalid_request: 'the API refused the request as invalid; read the client\'s last message and fix its cause first',
  model_not_found: 'the configured model does not exist for this account; pick another (`/model`) first',
  max_output_tokens: 'the answer hit the output token limit; split the item or raise the limit first',
  cloud_credential_error: 'the cloud provider\'s credentials failed; renew them first',
};

/** The `error` field of a StopFailure input, bounded to one short line (`unknown` when absent). */
export function apiErrorKind(value: unknown): string {
  const kind = typeof value === 'string' ? value.replace(/\s+/g, ' ').trim().slice(0, 80) : '';
  return kind === '' ? 'unknown' : kind;
}

/** True when waiting and resuming can help: the transient kinds. Anything unknown is treated as lasting. */
export function isRetryable(kind: string): boolean {
  return TRANSIENT.has(kind);
}

/** The record kept in state.json. */
export function apiErrorRecord(kind: string, now: Date): ApiErrorRecord {
  return { error: kind, retryable: isRetryable(kind), at: now.toISOString() };
}

/** What an API error is as a workflow's scribe reports it (`leopold record`'s ack) and the kernel stops on it. */
export interface ApiErrorFact {
  error: string;
  retryable: boolean;
}

/** The run's API error, or null when another condition (or none) ended it. */
export function apiErrorOf(state: { stop_reason?: string | null }): ApiErrorRecord | null {
  return state.stop_reason === API_ERROR_STOP ? apiErrorIn(state) : null;
}

/**
 * The `api_error` a state.json holds, ended or not: on an active workflow run, the
 * StopFailure hook keeps there the first API error a workflow agent died on, until the
 * run ends (docs/hooks.md, "API errors"). Null when it holds none.
 */
export function apiErrorIn(state: object): ApiErrorRecord | null {
  const raw = (state as Record<string, unknown>).api_error;
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return null;
  const { error, retryable, at } = raw as Record<string, unknown>;
  return { error: apiErrorKind(error), retryable: retryable === true, at: typeof at === 'string' ? at : '' };
}

/** One line: what failed (`who`: a session's turn, or a workflow's agent) and whether a retry can help (the stop's `Why:`). */
export function apiErrorDetail(kind: string, who: 'a turn' | 'an agent' = 'a turn'): string {
  const meaning = MEANING[kind] ?? `the client reported an API error it names "${kind}"; read its last message to see why`;
  return `${who} died on an API error: ${kind}: ${meaning}. ${isRetryable(kind) ? 'A retry can help' : 'A retry alone will not help'}.`;
}

/**
 * How the user resumes: the work done so far is kept (ticks in PLAN.md, the decisions), and a
 * new run in the same engine (its skill) continues from the next open item.
 */
export function apiErrorResume(kind: string, engine: 'session' | 'workflow' = 'session'): string {
  const first = isRetryable(kind) ? 'When the API answers again' : 'Once that is fixed';
  return `${first}, resume with ${engine === 'workflow' ? '/leopold-workflow' : '/leopold-run'} in Claude Code: it starts a new run that continues from the next open item (done items stay ticked in PLAN.md, decisions stay in DECISIONS.md).`;
}
