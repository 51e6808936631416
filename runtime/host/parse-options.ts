import type * as acorn from 'acorn';

/**
 * How Claude Code parses a workflow script (docs/host-contract.md): a strict ES module that
 * allows top-level await and top-level return. One definition, shared by the stand-in
 * host's loader and the compiler's static check, so the two can never parse differently.
 */
export const HOST_PARSE_OPTIONS = {
  ecmaVersion: 'latest',
  sourceType: 'module',
  allowReturnOutsideFunction: true,
  allowAwaitOutsideFunction: true,
  // The host wraps the body in a function, where `#!` is not valid; refuse it up front.
  allowHashBang: false,
  locations: true,
} as const satisfies acorn.Options;
