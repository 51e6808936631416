/**
 * The classification vocabulary: ONE catalog, kept as data so docs/classification.md
 * (which lists it) and the tests can read it. Pattern syntax, matched against the
 * words of a text (see words.ts):
 *
 * - `auth`        the whole word `auth` only (`author`, `oauth`, `auth2` do not match);
 * - `migrat*`     a stem: any word starting with `migrat` (`migrate`, `migrations`);
 * - `drop table`  a phrase: consecutive words, each part exact or a stem.
 *
 * Words are split at letter/digit and camelCase boundaries, so `2FA` is the phrase `2 fa`
 * and `getAuthToken` holds the word `auth`.
 *
 * Patterns are lower-case ASCII letters and digits, each in one place only; a test keeps
 * them well-formed and unique.
 */

/** What an item of a risk class gets: the reviewers it adds and whether its effort is raised to `max`. */
export interface RiskClass {
  /** A mistake costs money, data, access or an outage: the review panel adds a does-it-actually-work reviewer, effort at least `high`. */
  readonly critical: boolean;
  /** A mistake is a security or privacy failure: the review panel adds a security reviewer. */
  readonly sensitive: boolean;
  /** Effort `max` (migrations, money, irreversible work, security); only for a critical class. */
  readonly maxEffort: boolean;
  readonly patterns: readonly string[];
}

/** Every risk class an item can fall into, by name. An item is in a class when one of its patterns occurs in its text. */
export const RISK_CLASSES = {
  /** Money moving: charges, payouts, refunds, the payment providers. */
  payments: {
    critical: true,
    sensitive: true,
    maxEffort: true,
    patterns: [
      'payment*',
      'pay',
      'pays',
      'paying',
      'paid',
      'payout*',
      'payroll',
      'checkout',
      'refund*',
      'chargeback*',
      'purchas*',
      'credit card*',
      'card number*',
      'stripe',
      'paypal',
      'braintree',
      'adyen',
      'pci',
    ],
  },
  /** What customers are charged: invoices, subscriptions, plans, tax. */
  billing: {
    critical: true,
    sensitive: true,
    maxEffort: true,
    patterns: ['billing', 'billed', 'invoic*', 'subscription*', 'dunning', 'tax', 'taxes', 'vat'],
  },
  /** Who may do what: sign-in, sessions, permissions. */
  auth: {
    critical: true,
    sensitive: true,
    maxEffort: false,
    patterns: [
      'auth',
      'authn',
      'authz',
      'authenticat*',
      'authoriz*',
      'oauth',
      'oidc',
      'openid',
      'saml',
      'sso',
      'mfa',
      '2 fa',
      'totp',
      'login*',
      'logout*',
      'signin',
      'signup',
      'sign in',
      'sign up',
      'permission*',
      'privilege*',
      'rbac',
      'acl',
      'access control',
    ],
  },
  /** Secrets that grant access: passwords, keys, tokens. */
  credentials: {
    critical: true,
    sensitive: true,
    maxEffort: false,
    patterns: [
      'secret',
      'secrets',
      'credential*',
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
      'session cookie*',
      'private key*',
      'ssh key*',
      'dotenv',
    ],
  },
  /** Data about people: what privacy law protects. */
  'personal-data': {
    critical: true,
    sensitive: true,
    maxEffort: false,
    patterns: [
      'personal data',
      'personal information',
      'personally identifiable',
      'pii',
      'gdpr',
      'ccpa',
      'hipaa',
      'email address*',
      'phone number*',
      'home address*',
      'postal address*',
      'date of birth',
      'birthdate*',
      'ssn',
      'social security number*',
      'passport*',
      'user data',
      'customer data',
      'health data',
      'medical record*',
      'geolocation',
      'anonymi*',
      'pseudonymi*',
      'data subject*',
      'right to be forgotten',
    ],
  },
  /** The shape of stored data changing: database and schema migrations. */
  migrations: {
    critical: true,
    sensitive: true,
    maxEffort: true,
    patterns: ['migrat*', 'schema', 'schemas', 'schemata', 'alter table', 'backfill*', 'ddl'],
  },
  /** Data removed or destroyed: deletes, purges, wipes, destructive operations. */
  deletions: {
    critical: true,
    sensitive: true,
    maxEffort: false,
    patterns: [
      'delet*',
      'purg*',
      'wipe',
      'wipes',
      'wiped',
      'wiping',
      'eras*',
      'expung*',
      'shred*',
      'destructive',
      'destruction',
      'drop table',
      'drop column',
      'drop database',
      'drop schema',
      'truncate table',
      'data loss',
      'rm rf',
      'reset hard',
      'force push*',
      'push force',
    ],
  },
  /** Vulnerabilities and hardening as the subject of the work. */
  security: {
    critical: true,
    sensitive: true,
    maxEffort: true,
    patterns: ['secur*', 'insecure', 'vulnerab*', 'cve', 'exploit*'],
  },
  /** Defences an item touches without being about risk as such: input handling, transport, signatures. */
  'security-controls': {
    critical: false,
    sensitive: true,
    maxEffort: false,
    patterns: [
      'csrf',
      'xss',
      'ssrf',
      'cors',
      'sql injection',
      'sanitiz*',
      'encrypt*',
      'decrypt*',
      'crypto*',
      'tls',
      'ssl',
      'certificate*',
      'sign',
      'signing',
      'signature*',
    ],
  },
  /** Work that cannot be taken back once done. */
  irreversible: {
    critical: true,
    sensitive: false,
    maxEffort: true,
    patterns: ['irreversib*'],
  },
  /** Shipping and infrastructure: a mistake is an outage. */
  shipping: {
    critical: true,
    sensitive: false,
    maxEffort: false,
    patterns: ['production', 'prod', 'deploy*', 'releas*', 'rollout*', 'rollback*', 'infra', 'infrastructure', 'terraform', 'dns'],
  },
} as const satisfies Record<string, RiskClass>;

/** A risk class's name. */
export type RiskClassName = keyof typeof RISK_CLASSES;

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
