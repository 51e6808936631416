// Kept apart from accept.ts so the decision writer can ask "is this role generic?"
// without loading the markdown parser that charterRules needs.

/** Roles too generic to decide anything (docs/decisions.md), in their normalised form; the prompt names them. */
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

/**
 * Words that make any role a costume wherever they stand: they name a machine or a
 * stand-in, never a job ("AI Assistant", "Release Agent", "Claude the Counsel").
 */
export const COSTUME_WORDS: readonly string[] = ['assistant', 'agent', 'helper', 'bot', 'chatbot', 'llm', 'gpt', 'copilot', 'persona', 'leopold', 'claude'];

/** Dressing that changes no fit: seniority, tone, breadth. Dropped before the role is judged. */
export const ROLE_MODIFIERS: readonly string[] = [
  'senior', 'junior', 'lead', 'principal', 'staff', 'chief', 'head', 'helpful', 'general', 'generic', 'friendly',
  'experienced', 'seasoned', 'skilled', 'veteran', 'certified', 'virtual', 'digital', 'smart', 'intelligent',
  'universal', 'versatile', 'capable', 'competent', 'knowledgeable', 'trusted', 'dedicated', 'highly', 'very',
  'super', 'top', 'world', 'class', 'round', 'multi', 'purpose', 'cross', 'functional', '10x',
];

/**
 * Nouns and qualifiers that say "someone who works" or "about computers" without saying
 * at what: a role made only of these (after the modifiers) fits no decision.
 */
export const GENERIC_ROLE_WORDS: readonly string[] = [
  // who, without a job
  'engineer', 'developer', 'programmer', 'coder', 'expert', 'specialist', 'professional', 'worker', 'generalist',
  'consultant', 'advisor', 'adviser', 'analyst', 'architect', 'manager', 'person', 'human', 'individual', 'someone',
  'member', 'contributor', 'practitioner', 'guru', 'wizard', 'ninja', 'rockstar', 'polymath', 'master', 'pro', 'model',
  // about what, without a subject
  'ai', 'software', 'technical', 'tech', 'technology', 'it', 'computer', 'code', 'coding', 'programming', 'domain',
  'subject', 'matter', 'all', 'any', 'every', 'everything', 'anything', 'team', 'project', 'problem', 'solver', 'solving',
];

/** Expertise entries made only of these words claim everything, which fits nothing. */
export const CATCH_ALL_EXPERTISE: readonly string[] = [
  'everything', 'anything', 'all', 'any', 'every', 'general', 'generic', 'misc', 'miscellaneous', 'various', 'varied',
  'stuff', 'thing', 'whatever', 'needed', 'necessary', 'relevant', 'knowledge', 'expertise', 'skill', 'experience',
  'domain', 'area', 'field', 'topic', 'subject', 'n/a', 'na', 'none', 'etc', 'software', 'engineering', 'development',
  'programming', 'coding', 'code', 'tech', 'technology', 'technical', 'it', 'computer', 'computing', 'problem',
  'solving', 'best', 'practice', 'judgment', 'judgement', 'common', 'sense', 'helpfulness', 'helping', 'assistance',
  'ai', 'universal', 'broad', 'wide', 'range', 'deep', 'expert', 'good', 'great', 'strong',
];

// Articles and joining words: they carry no fit either way.
const FILLER = new Set(['a', 'an', 'the', 'of', 'for', 'and', 'or', 'in', 'on', 'at', 'to', 'with', '&', 'who', 'that']);

const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();

/** The words of a role or expertise entry: lower-cased, split on anything but letters, digits, `/` and `'` (so "Subject-Matter" is two words), one plural `s` dropped. */
export function wordsOf(text: string): string[] {
  return oneLine(text)
    .toLowerCase()
    .split(/[^\p{L}\p{N}'/]+/u)
    .map((w) => w.replace(/^['/]+|['/]+$/g, ''))
    .filter((w) => w !== '')
    .map((w) => (w.length > 2 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w));
}

/**
 * The form a role used to be compared in (kept for callers that show it): lower-cased,
 * trimmed, inner whitespace collapsed, one leading article dropped, one plural `s` dropped.
 */
export function normaliseRole(role: string): string {
  let r = oneLine(role).toLowerCase();
  r = r.replace(/^(?:a|an|the) (?=\S)/, '');
  if (r.length > 1 && r.endsWith('s')) r = r.slice(0, -1);
  return r;
}

const COSTUME = new Set(COSTUME_WORDS);
const MODIFIER = new Set(ROLE_MODIFIERS);
const GENERIC = new Set(GENERIC_ROLE_WORDS);
const CATCH_ALL = new Set(CATCH_ALL_EXPERTISE);

/**
 * Why a role is a costume, or null when it names a fitted job. Refused: a costume word
 * anywhere (assistant, agent, bot, …), or nothing left but generic words once the dressing
 * (senior, lead, helpful, general, …) and filler are dropped ("Senior Engineer", "Domain
 * Expert", "AI"). Accepted: any word that says at what ("Data Engineer", "Release Engineer").
 */
export function roleRefusal(role: string): string | null {
  const words = wordsOf(role);
  const costume = words.find((w) => COSTUME.has(w));
  if (costume !== undefined) return `the role ${JSON.stringify(oneLine(role))} is generic: "${costume}" names a stand-in, not a job`;
  const fitted = words.filter((w) => !MODIFIER.has(w) && !FILLER.has(w) && !GENERIC.has(w));
  if (fitted.length === 0) return `the role ${JSON.stringify(oneLine(role))} is generic: it names no specific job`;
  return null;
}

/** True when `role` is a costume (roleRefusal). */
export function isGenericRole(role: string): boolean {
  return roleRefusal(role) !== null;
}

/** True when an expertise entry claims everything: nothing but catch-all words and filler ("everything", "general software knowledge"). */
export function isCatchAllExpertise(entry: string): boolean {
  return wordsOf(entry).every((w) => CATCH_ALL.has(w) || FILLER.has(w));
}

/** Why a persona's expertise fits nothing (empty, or every entry catch-all), or null. */
export function expertiseRefusal(expertise: readonly string[]): string | null {
  const entries = expertise.map(oneLine).filter((e) => e !== '');
  if (entries.length === 0) return 'the persona answer has no expertise';
  if (entries.every(isCatchAllExpertise)) return `the expertise ${JSON.stringify(entries)} is catch-all: name what this decision needs known`;
  return null;
}

/** Why a persona is refused as a costume (role first, then expertise), or null when it fits. */
export function personaRefusal(persona: { role: string; expertise: readonly string[] }): string | null {
  return roleRefusal(persona.role) ?? expertiseRefusal(persona.expertise);
}
