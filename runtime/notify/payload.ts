import { maskSecrets } from './mask.js';

/** What a `notify_webhook` receives: the JSON body of the POST (docs/decisions.md). */
export interface NotifyPayload {
  title: string;
  body: string;
}

/** The webhook payload for a report, secrets masked in both fields. */
export function notifyPayload(title: string, body: string): NotifyPayload {
  return { title: maskSecrets(title), body: maskSecrets(body) };
}

/** The payload for an end-of-run report: its first line is the title, the whole report the body. */
export function runEndPayload(report: string): NotifyPayload {
  return notifyPayload(report.split('\n', 1)[0] ?? '', report);
}
