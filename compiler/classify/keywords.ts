/**
 * The classification vocabulary (SPEC-PLAN §5), kept as data so docs/classification.md and
 * the tests can list it. Pattern syntax, matched against the words of a text (see words.ts):
 *
 * - `auth`        the whole word `auth` only (`author`, `oauth`, `auth2` do not match);
 * - `migrat*`     a stem: any word starting with `migrat` (`migrate`, `migrations`);
 * - `drop table`  a phrase: consecutive words, each part exact or a stem.
 *
 * Words are split at letter/digit and camelCase boundaries, so `2FA` is the phrase `2 fa`
 * and `getAuthToken` holds the word `auth`.
 *
 * Patterns are lower-case ASCII letters and digits; a test keeps them well-formed.
 */

/** Access and secrets: both critical (a mistake locks people out or leaks) and sensitive. */
const ACCESS_PATTERNS = [
  'auth',
  'authn',
  'authz',
  'authenticat*',
  'authoriz*',
  'oauth',
  'sso',
  'secret*',
  'credential*',
] as const;

/** High-impact domains: a mistake here costs money, data, access or an outage. */
export const CRITICAL_PATTERNS = [
  // money
  'billing',
  'payment*',
  'payout*',
  'invoic*',
  'refund*',
  'checkout',
  'subscription*',
  // access and secrets
  ...ACCESS_PATTERNS,
  // data shape and loss
  'migrat*',
  'schema*',
  'delet*',
  'purg*',
  'wipe',
  'drop table',
  'drop column',
  'drop database',
  'truncate table',
  'data loss',
  'backfill*',
  // shipping and infrastructure
  'production',
  'prod',
  'deploy*',
  'releas*',
  'rollout*',
  'rollback*',
  'infra',
  'infrastructure',
  'terraform',
  'dns',
] as const;

/**
 * Raises a critical item to effort `max` (SPEC-PLAN §5: migration / schema / irreversible /
 * payment / security). Every one of these is also critical on its own: a migration or a
 * payment change is high-impact whatever else the item says.
 */
export const MAX_EFFORT_PATTERNS = [
  'migrat*',
  'schema*',
  'irreversib*',
  'payment*',
  'billing',
  'secur*',
  'vulnerab*',
] as const;

/** Small, mechanical work that needs no deep effort (unless it is also critical). */
export const TRIVIAL_PATTERNS = [
  'typo*',
  'spelling',
  'renam*',
  'doc',
  'docs',
  'documentation',
  'docstring*',
  'jsdoc',
  'readme*',
  'changelog*',
  'lint*',
  'format',
  'formatting',
  'reformat*',
  'prettier',
  'whitespace',
  'wording',
  'reword*',
] as const;

/**
 * Security-touching work: the review panel adds a security reviewer (SPEC-RUNTIME §5).
 * Whole words on purpose: `sign` must not fire on `design`, `auth` not on `author`.
 */
export const SENSITIVE_PATTERNS = [
  ...ACCESS_PATTERNS,
  'security',
  'secure',
  'insecure',
  'vulnerab*',
  'cve',
  'oidc',
  'saml',
  'mfa',
  '2 fa',
  'login*',
  'logout*',
  'signin',
  'signup',
  'sign',
  'signing',
  'signature*',
  'password*',
  'passwd',
  'passphrase*',
  'jwt',
  'api key*',
  'apikey*',
  'access token*',
  'refresh token*',
  'bearer token*',
  'auth token*',
  'session token*',
  'permission*',
  'privilege*',
  'rbac',
  'acl',
  'access control',
  'csrf',
  'xss',
  'ssrf',
  'sql injection',
  'sanitiz*',
  'encrypt*',
  'decrypt*',
  'crypto*',
  'tls',
  'ssl',
  'certificate*',
  'pii',
  'gdpr',
] as const;

/**
 * A charter naming any of these describes a high-risk project: live users, money, or
 * regulated data. Negation is not parsed ("never touch production" still names production)
 * because a charter that has to forbid it is working near it.
 */
export const HIGH_RISK_CHARTER_PATTERNS = [
  'high risk',
  'production',
  'live users',
  'real users',
  'customer data',
  'personal data',
  'payment*',
  'billing',
  'real money',
  'financ*',
  'banking',
  'regulat*',
  'compliance',
  'compliant',
  'audit*',
  'pii',
  'gdpr',
  'hipaa',
  'pci',
  'soc 2',
  'medical',
  'patient*',
  'healthcare',
  'safety critical',
] as const;
