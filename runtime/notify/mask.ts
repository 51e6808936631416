/**
 * One kind of secret the final report must never carry to a webhook: what it looks like
 * and what replaces it. The replacement keeps the recognisable part (a prefix, the key
 * name) so a reader sees that something was masked, and what kind.
 */
export interface SecretPattern {
  readonly name: string;
  readonly pattern: RegExp;
  readonly replacement: string;
}

// Left boundary for prefixed tokens: not in the middle of a word (`task-…`, `wghp_…`).
const START = '(?<![A-Za-z0-9_])';

/**
 * The documented list (docs/runtime.md, "Notifications"), applied in order. Deliberately
 * broad: a false positive costs a few characters of a notification, a miss leaks a secret.
 */
export const SECRET_PATTERNS: readonly SecretPattern[] = [
  // URL userinfo first, so `https://user:sk-…@host` loses the whole credential at once.
  { name: 'url-userinfo', pattern: /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@]+@/gi, replacement: '$1***@' },
  { name: 'openai-anthropic', pattern: new RegExp(`${START}sk-[A-Za-z0-9_-]{16,}`, 'g'), replacement: 'sk-***' },
  { name: 'github-token', pattern: new RegExp(`${START}(gh[pousr]_)[A-Za-z0-9]{20,}`, 'g'), replacement: '$1***' },
  { name: 'github-pat', pattern: new RegExp(`${START}github_pat_[A-Za-z0-9_]{20,}`, 'g'), replacement: 'github_pat_***' },
  { name: 'slack-token', pattern: new RegExp(`${START}(xox[abp]-)[A-Za-z0-9-]{10,}`, 'g'), replacement: '$1***' },
  { name: 'aws-access-key', pattern: new RegExp(`${START}AKIA[0-9A-Z]{16}(?![0-9A-Z])`, 'g'), replacement: 'AKIA***' },
  { name: 'bearer', pattern: /\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/g, replacement: 'Bearer ***' },
  // `password=…`, `GITHUB_TOKEN: …`, `client_secret="…"`, `api-key=…`: the key stays, the value goes.
  {
    name: 'key-value',
    pattern: /\b([A-Za-z0-9_-]*(?:password|passwd|token|secret|api[_-]?key))(\s*[:=]\s*)("[^"\n]*"|'[^'\n]*'|[^\s"'&,;]+)/gi,
    replacement: '$1$2***',
  },
];

/** The text with every token that looks like a secret (SECRET_PATTERNS) masked. Pure and idempotent. */
export function maskSecrets(text: string): string {
  return SECRET_PATTERNS.reduce((masked, { pattern, replacement }) => masked.replace(pattern, replacement), text);
}
