import { join } from 'node:path';
import { asRefusals } from '../brief/guardrails.js';
import { BRIEF_FILES } from '../brief/load.js';
import { readTextFile } from '../brief/read-text.js';
import { renderDiagnostics, type DiagnosticFormat } from '../diagnostics/render.js';
import { checkPlanFile } from './commands/graph.js';
import { shownPath } from './io.js';

/** Why a run may not start on this brief, rendered; `count` 0 when it may. */
export interface EntryRefusal {
  count: number;
  rendered: string;
}

/**
 * THE entry gate of a run, in either engine and in `leopold ci`: the plan must pass `leopold
 * graph --strict` (the same checks, the same diagnostics: an error or a warning refuses),
 * with GUARDRAILS.md read as `run start` reads it (each problem an error: a run never starts
 * on limits the file does not say, docs/guardrails.md). Nothing is armed or written before
 * it passes.
 */
export function entryRefusal(briefDir: string, cwd: string, format: DiagnosticFormat = 'text'): EntryRefusal {
  const planPath = shownPath(cwd, join(briefDir, BRIEF_FILES.plan));
  const { analysis, sources } = checkPlanFile(planPath, readTextFile(planPath, 'plan file'), cwd);
  const guardrailsPath = shownPath(cwd, join(briefDir, BRIEF_FILES.guardrails));
  const found = analysis.diagnostics.map((d) => (d.file === guardrailsPath ? asRefusals([d])[0]! : d));
  return { count: found.length, rendered: found.length === 0 ? '' : renderDiagnostics(found, format, sources) };
}
