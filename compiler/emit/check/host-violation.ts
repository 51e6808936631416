import { diagnosticFor, LeopoldError, type Diagnostic, type Span } from '../../diagnostics/diagnostic.js';
import { HOST_CONTRACT_CODES, type HostContractCode } from './codes.js';

// What every host-contract check reports with, parser or not: compile's per-plan check of
// the script's head (script-head.ts) uses these without loading acorn.

/** A host-contract violation: the shared Diagnostic shape, always an error. */
export function violation(code: HostContractCode, file: string, span: Span, message: string): Diagnostic {
  return diagnosticFor(code, { severity: 'error', hint: HOST_CONTRACT_CODES[code].hint }, file, span, message);
}

/**
 * Throws a LeopoldError listing every violation, if there is one. For compile's own output:
 * a violation there is a compiler bug.
 */
export function throwOnViolations(violations: readonly Diagnostic[]): void {
  const first = violations[0];
  if (!first) return;
  const listing = violations.map((v) => `  ${v.file}:${v.line}:${v.column}: ${v.code}: ${v.message}`).join('\n');
  const count = violations.length === 1 ? '1 violation' : `${violations.length} violations`;
  throw new LeopoldError(
    `the emitted workflow script breaks the Claude Code host contract (docs/host-contract.md), ${count}; this is a Leopold bug, please report it:\n${listing}`,
    first.file,
    first.line,
    first.column,
  );
}
