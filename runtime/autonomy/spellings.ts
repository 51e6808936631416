// Kept apart from resolve.ts (zod) so the workflow bundle reads an args posture with the
// same function compile and the hooks use, without loading zod.

// Every accepted spelling; `halt` and `human` are the older names for `ask`.
const SPELLINGS: Readonly<Record<string, 'full' | 'ask'>> = {
  full: 'full',
  ask: 'ask',
  halt: 'ask',
  human: 'ask',
};

/** One spelling to a posture, or undefined when it is not a recognised spelling. */
export function parseAutonomy(value: string): 'full' | 'ask' | undefined {
  const key = value.trim().toLowerCase();
  return Object.hasOwn(SPELLINGS, key) ? SPELLINGS[key] : undefined;
}

/** The accepted spellings, for a did-you-mean on a misspelt one. */
export const AUTONOMY_SPELLINGS: readonly string[] = Object.keys(SPELLINGS);
