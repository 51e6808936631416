/**
 * The host-contract violation codes: one per rule of docs/host-contract.md, each with the
 * clause it enforces and the advice shown as `hint`. Stable strings: never reuse or rename
 * one. docs/host-contract.md lists the same table, and a test keeps the two in step.
 */
export const HOST_CONTRACT_CODES = {
  'host-contract/size': {
    clause: '§1 at most 524,288 bytes',
    hint: 'Shrink the embedded plan or the bundled runtime; the host refuses larger scripts.',
  },
  'host-contract/escape-character': {
    clause: '§1 an ESC character is refused',
    hint: 'Write ESC as the escape sequence \\u001b inside a string instead of the raw byte.',
  },
  'host-contract/bare-carriage-return': {
    clause: '§1 a bare CR is refused (CRLF is normalised)',
    hint: 'Use LF or CRLF line endings; write a CR inside a string as \\r.',
  },
  'host-contract/syntax': {
    clause: '§1 parsed as an ES module (strict) with top-level await and return',
    hint: 'The body runs as `(async () => { "use strict"; <body> })()`; write strict-mode JavaScript.',
  },
  'host-contract/with': {
    clause: '§1 `with` is refused in the body',
    hint: 'Name the object explicitly instead of using a `with` block.',
  },
  'host-contract/meta-first': {
    clause: '§1 the first statement is `export const meta = { … }`',
    hint: 'Start the file (comments may precede it) with `export const meta = { name: …, description: … };`.',
  },
  'host-contract/meta-literal': {
    clause: '§1 meta is a pure literal',
    hint: 'Use only strings, numbers, booleans, null, arrays, plain objects and templates without ${}.',
  },
  'host-contract/meta-field': {
    clause: '§1 meta fields: name, description (non-empty strings), phases, whenToUse, title',
    hint: 'meta needs non-empty string `name` and `description`; `phases` is [{ title, detail?, model? }] of strings.',
  },
  'host-contract/export': {
    clause: '§1 no other `export`',
    hint: 'Only `meta` is exported; keep everything else local to the body.',
  },
  'host-contract/import': {
    clause: '§1 no `import` anywhere',
    hint: 'Bundle dependencies into the script (esbuild) instead of importing them.',
  },
  'host-contract/dynamic-import': {
    clause: '§1 `import()` is refused in the body',
    hint: 'Bundle the module into the script instead of loading it at run time.',
  },
  'host-contract/reserved-identifier': {
    clause: '§1 identifiers starting with `__wRg$` are refused',
    hint: 'The host reserves the `__wRg$` prefix for its own wrapper; rename the identifier.',
  },
  'host-contract/forbidden-global': {
    clause: '§2 no require, process, fetch, eval or Function in the sandbox',
    hint: 'The sandbox has none of these; do the work through agent() or the leopold CLI via a scribe agent.',
  },
  'host-contract/absent-global': {
    clause: '§2 URL, Buffer, TextEncoder, structuredClone, setInterval, btoa, WebAssembly, … are absent',
    hint: 'Guard with `typeof X !== "undefined"` or avoid the API; the sandbox does not provide it.',
  },
  'host-contract/meta-in-body': {
    clause: '§1 `meta` is not in scope in the body',
    hint: 'Repeat the value you need as a body constant; the host strips `meta` before running the body.',
  },
  'host-contract/date-now': {
    clause: '§2 Date.now() throws (runs must replay on resume)',
    hint: 'Take the time from args (e.g. args.timestamp) instead of the clock.',
  },
  'host-contract/math-random': {
    clause: '§2 Math.random() throws (runs must replay on resume)',
    hint: 'Derive any variation deterministically from the plan or args.',
  },
  'host-contract/current-date': {
    clause: '§2 `new Date()` without arguments and `Date()` throw',
    hint: 'Pass an explicit time: `new Date(args.timestamp)`; Date.parse and Date.UTC are fine.',
  },
  'host-contract/missing-semicolon': {
    clause: '§1 always end statements with semicolons',
    hint: 'Add the `;`: the host may refuse a script that relies on automatic semicolon insertion.',
  },
} as const;

/** A host-contract violation code. */
export type HostContractCode = keyof typeof HOST_CONTRACT_CODES;
