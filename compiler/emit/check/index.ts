import { sortDiagnostics, type Diagnostic } from '../../diagnostics/diagnostic.js';
import { throwOnViolations } from './host-violation.js';
import type { HostContractRule } from './rule.js';
import { parseScript } from './script.js';
import { checkAbsentGlobals } from './rules/absent-globals.js';
import { checkControlCharacters } from './rules/control-characters.js';
import { checkDynamicImport } from './rules/dynamic-import.js';
import { checkForbiddenGlobals } from './rules/forbidden-globals.js';
import { checkImportExport } from './rules/import-export.js';
import { checkMeta } from './rules/meta.js';
import { checkReplayDeterminism } from './rules/replay-determinism.js';
import { checkReservedIdentifier } from './rules/reserved-identifier.js';
import { checkSemicolons } from './rules/semicolons.js';
import { checkSize } from './rules/size.js';
import { checkSyntax } from './rules/syntax.js';

export { HOST_CONTRACT_CODES, type HostContractCode } from './codes.js';
export { HOST_SCRIPT_MAX_BYTES } from './limits.js';
export { WorkflowMetaSchema, type WorkflowMeta } from './meta-schema.js';
export { FORBIDDEN_GLOBALS } from './rules/forbidden-globals.js';
export { ABSENT_GLOBALS } from './rules/absent-globals.js';

/** Every rule of docs/host-contract.md, in the order the contract states them. */
const RULES: readonly HostContractRule[] = [
  checkSize,
  checkControlCharacters,
  checkSyntax,
  checkMeta,
  checkImportExport,
  checkDynamicImport,
  checkReservedIdentifier,
  checkForbiddenGlobals,
  checkAbsentGlobals,
  checkReplayDeterminism,
  checkSemicolons,
];

/** Every host-contract violation in an emitted workflow script, sorted; empty when it complies. */
export function checkWorkflowScript(source: string, file: string): Diagnostic[] {
  const script = parseScript(source, file);
  return sortDiagnostics(RULES.flatMap((rule) => rule(script)));
}

/**
 * Throws a LeopoldError listing every violation when the script breaks the host contract:
 * for scripts that do not come from the checked template (a violation in one Leopold
 * emitted would be a compiler bug).
 */
export function assertWorkflowScript(source: string, file: string): void {
  throwOnViolations(checkWorkflowScript(source, file));
}
