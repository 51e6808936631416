import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { checkWorkflowScript } from './check/index.js';
import { wasEmitted } from './index.js';

/**
 * checkWorkflowScript, without a parse for a script this process has just emitted
 * (emitWorkflow checked its head, and the bundle and template around it were checked in
 * full before): `leopold simulate` hands it to the stand-in host's loader, which then
 * parses it once, for itself.
 */
export function checkEmittedScript(source: string, file: string): Diagnostic[] {
  return wasEmitted(source) ? [] : checkWorkflowScript(source, file);
}
