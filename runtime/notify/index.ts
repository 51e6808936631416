// notify_webhook (docs/decisions.md): the end-of-run report, secrets masked, POSTed as JSON
// `{ title, body }`, best effort. Only the edges outside the workflow sandbox post it
// (`leopold run finish`, the Stop hook); the workflow script has no fetch.
export { maskSecrets, SECRET_PATTERNS, type SecretPattern } from './mask.js';
export { notifyPayload, runEndPayload, type NotifyPayload } from './payload.js';
export { NOTIFY_TIMEOUT_MS, postNotification, type NotifyResult } from './post.js';
export { notifyRunEnded } from './run-end.js';
