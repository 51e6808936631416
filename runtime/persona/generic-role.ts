// Kept apart from accept.ts so the decision writer can ask "is this role generic?"
// without loading the markdown parser that charterRules needs.

/** Roles too generic to decide anything (SPEC-RUNTIME §2), in their normalised form. */
export const GENERIC_ROLES: readonly string[] = [
  'assistant',
  'ai',
  'agent',
  'helper',
  'bot',
  'model',
  'llm',
  'worker',
  'generalist',
  'expert',
  'specialist',
  'professional',
  'engineer',
  'developer',
  'software engineer',
  'persona',
  'leopold',
  'claude',
];

const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();

/**
 * The form a role is compared in: lower-cased, trimmed, inner whitespace collapsed, one
 * leading article (a/an/the) dropped, then one plural `s` dropped. "An Assistant" and
 * "Engineers" both land on a generic role; "Release Engineer" does not.
 */
export function normaliseRole(role: string): string {
  let r = oneLine(role).toLowerCase();
  r = r.replace(/^(?:a|an|the) (?=\S)/, '');
  if (r.length > 1 && r.endsWith('s')) r = r.slice(0, -1);
  return r;
}

/** True when `role` is one of GENERIC_ROLES once normalised. */
export function isGenericRole(role: string): boolean {
  return GENERIC_ROLES.includes(normaliseRole(role));
}

