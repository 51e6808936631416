import { join } from 'node:path';
import { isSandboxPlaceholder } from '../../runtime/lock/files.js';
import { BRIEF_FILES } from './files.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { DEFAULT_GUARDRAILS, parseGuardrails, type Guardrails } from './guardrails.js';
import { readOptionalTextFile, readTextFile } from './read-text.js';

export { BRIEF_FILES };

/** The texts of a `.leopold/` brief and the paths they came from (as given, joined to `dir`). */
export interface Brief {
  dir: string;
  paths: { mission: string; charter: string; guardrails: string; plan: string };
  mission: string;
  charter: string;
  guardrails: string;
  plan: string;
}

/**
 * Reads a `.leopold/` directory. MISSION, CHARTER and GUARDRAILS are optional (missing →
 * empty string); a missing PLAN.md, or any unreadable file, is a LeopoldError naming its path.
 */
export function loadBrief(dir: string): Brief {
  const paths = {
    mission: join(dir, BRIEF_FILES.mission),
    charter: join(dir, BRIEF_FILES.charter),
    guardrails: join(dir, BRIEF_FILES.guardrails),
    plan: join(dir, BRIEF_FILES.plan),
  };
  return {
    dir,
    paths,
    mission: readOptionalTextFile(paths.mission, 'mission file'),
    charter: readOptionalTextFile(paths.charter, 'charter file'),
    guardrails: readGuardrailsText(paths.guardrails),
    plan: readTextFile(paths.plan, 'plan file'),
  };
}

/**
 * Reads and parses a GUARDRAILS.md file: missing → defaults; unreadable or binary →
 * LeopoldError; bad values → `bad-guardrail` warnings. `text` is what was read ('' when
 * missing), so callers can show code frames without reading the file twice.
 */
export function readGuardrails(path: string): { guardrails: Guardrails; diagnostics: Diagnostic[]; text: string } {
  const text = readGuardrailsText(path);
  if (text === '') return { guardrails: DEFAULT_GUARDRAILS, diagnostics: [], text };
  return { ...parseGuardrails(text, path), text };
}

/**
 * GUARDRAILS.md's text ('' when there is none). Inside Claude Code's sandbox, while a run's
 * lock is armed, a protected path that does not exist shows as a character device (the
 * sandbox's placeholder, docs/lock.md): that is a missing file too, so `run start` and
 * `compile`, run by a skill inside a locked session, read the defaults instead of failing.
 * Anything else that is not a regular UTF-8 text file is a LeopoldError naming `path`.
 */
export function readGuardrailsText(path: string): string {
  if (isSandboxPlaceholder(path)) return '';
  return readOptionalTextFile(path, 'guardrails file');
}
