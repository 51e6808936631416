import { AUTONOMY_SPELLINGS, parseAutonomy } from '../autonomy/spellings.js';
import type { Guardrails } from './schema.js';

/** One GUARDRAILS key: its name in the file, the field it sets, how a value reads, and what it accepts. */
export interface GuardrailKey {
  /** The key as docs/guardrails.md spells it (`-` for `_` and any case read the same). */
  readonly name: string;
  readonly field: keyof Guardrails;
  /** The value as read, or undefined when the key does not accept it. */
  readonly read: (value: string) => Guardrails[keyof Guardrails] | undefined;
  /** What the key accepts, for the message about a value it does not. */
  readonly expected: string;
  /** The words the value may be, when it is one of a few, for a did-you-mean on a misspelt one. */
  readonly words?: readonly string[];
}

const lower = (value: string) => value.toLowerCase();

/** A whole number of at least `min` (digits only: no sign, no separators, no unit). */
const wholeNumber =
  (min: number) =>
  (value: string): number | undefined => {
    if (!/^\d{1,15}$/.test(value)) return undefined;
    const n = Number(value);
    return n >= min ? n : undefined;
  };

// "5", "2.5", "5 MB", "5MiB": people write the unit the key already names.
function megabytes(value: string): number | undefined {
  const m = /^(\d{1,9}(?:\.\d{1,6})?)\s*(?:mb|mib)?$/i.exec(value);
  const n = m ? Number.parseFloat(m[1]!) : 0;
  return n > 0 ? n : undefined;
}

const ON_OFF: Readonly<Record<string, 'on' | 'off'>> = { on: 'on', true: 'on', yes: 'on', off: 'off', false: 'off', no: 'off' };
const onOff = (value: string) => (Object.hasOwn(ON_OFF, lower(value)) ? ON_OFF[lower(value)] : undefined);

/** `none`, or an http(s) URL with a host (the final report is POSTed there). */
function webhook(value: string): string | undefined {
  if (lower(value) === 'none') return 'none';
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** `none`, or phrases separated by commas (`payments, {#deploy}`): each kept as written, trimmed. */
function phrases(value: string): string[] | undefined {
  if (lower(value) === 'none') return [];
  const list = value.split(',').map((phrase) => phrase.trim()).filter((phrase) => phrase !== '');
  return list.length > 0 ? list : undefined;
}

const whole = (min: number) => ({ read: wholeNumber(min), expected: `a whole number ≥ ${min}` });

/** Every GUARDRAILS key, in the order docs/guardrails.md lists them. */
export const KEYS: readonly GuardrailKey[] = [
  { name: 'autonomy', field: 'autonomy', read: parseAutonomy, expected: 'full or ask (halt and human also mean ask)', words: AUTONOMY_SPELLINGS },
  { name: 'max_review_rounds', field: 'maxReviewRounds', ...whole(0) },
  { name: 'max_iterations', field: 'maxIterations', ...whole(1) },
  { name: 'max_failures', field: 'maxFailures', ...whole(1) },
  { name: 'max_no_progress', field: 'maxNoProgress', ...whole(1) },
  { name: 'max_context_mb', field: 'maxContextMb', read: megabytes, expected: 'a number of megabytes > 0' },
  { name: 'max_windows', field: 'maxWindows', ...whole(1) },
  { name: 'max_subagents', field: 'maxSubagents', ...whole(1) },
  { name: 'max_subagents_per_run', field: 'maxSubagentsPerRun', ...whole(1) },
  { name: 'parallel_items', field: 'parallelItems', read: onOff, expected: 'on or off (true/false, yes/no)', words: Object.keys(ON_OFF) },
  { name: 'notify_webhook', field: 'notifyWebhook', read: webhook, expected: 'none or an http(s) URL', words: ['none'] },
  { name: 'gated', field: 'gated', read: phrases, expected: 'none, or phrases separated by commas (an item whose text holds one, or {#anchor} naming it)' },
];
