/**
 * The host's numeric limits (docs/host-contract.md), named once. The stand-in's own choices
 * (virtual agent duration, default token cost) are marked as such.
 */

/** §1: a workflow script holds at most this many UTF-8 bytes, as given. */
export const MAX_SCRIPT_BYTES = 524_288;

/** §2: one synchronous slice of the script may run this long. */
export const SLICE_MS = 30_000;

/** §2: arrays crossing the boundary (args, parallel/pipeline inputs, results) hold at most this many elements. */
export const MAX_BOUNDARY_ARRAY = 4_096;

/** §3: agents running at once. */
export const MAX_CONCURRENT_AGENTS = 16;

/** §3: agents per run; the next call throws. */
export const MAX_AGENTS_PER_RUN = 1_000;

/**
 * §5 (measured in the real client, 2.1.332): an agent gets this many structured answers in
 * all, the first included; after that many invalid ones agent() throws. (§3's "after 5
 * retries" read as 6 attempts, which the real client never makes.)
 */
export const STRUCTURED_OUTPUT_ATTEMPTS = 5;

/** §3: progress lines kept (the most recent ones). */
export const MAX_LOG_LINES = 1_000;

/** §3: the run's result is shown truncated to this many characters. */
export const RESULT_PREVIEW_CHARS = 8_000;

/** Stand-in choice: tokens an agent answer costs when the answer script names no cost. */
export const DEFAULT_TOKENS_PER_ANSWER = 1_000;

/** Stand-in choice: every agent runs this long on the virtual clock. */
export const AGENT_VIRTUAL_MS = 1_000;

/** Stand-in choice: the wall-clock limit of a whole run unless the caller sets one. */
export const DEFAULT_RUN_TIMEOUT_MS = 60_000;
