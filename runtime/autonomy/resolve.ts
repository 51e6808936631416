import { z } from 'zod';
import { parseAutonomy } from './spellings.js';

export { parseAutonomy };

/** The two postures a run can have (docs/guardrails.md). */
export const AutonomySchema = z.enum(['full', 'ask']);
export type Autonomy = z.infer<typeof AutonomySchema>;

/** Where the winning value came from, highest precedence first. */
export const AutonomySourceSchema = z.enum(['flag', 'env', 'guardrails', 'default']);
export type AutonomySource = z.infer<typeof AutonomySourceSchema>;

/** The raw values found at each level; absent or blank means "not set here". */
export interface AutonomyInputs {
  flag?: string | null | undefined;
  env?: string | null | undefined;
  guardrails?: string | null | undefined;
}

/** The resolved posture, which level decided it, and one warning per ignored value. */
export interface ResolvedAutonomy {
  autonomy: Autonomy;
  source: AutonomySource;
  warnings: string[];
}

const LEVEL_NAMES: Readonly<Record<Exclude<AutonomySource, 'default'>, string>> = {
  flag: 'the --autonomy flag',
  env: 'LEOPOLD_AUTONOMY',
  guardrails: 'GUARDRAILS.md (autonomy:)',
};

/**
 * flag > LEOPOLD_AUTONOMY > GUARDRAILS > `full`: the first recognised value wins. An
 * unrecognised value is skipped with a warning (at every level, even one that would not
 * have won), so a typo never changes the posture and never goes unnoticed.
 */
export function resolveAutonomy(inputs: AutonomyInputs): ResolvedAutonomy {
  const warnings: string[] = [];
  let winner: { autonomy: Autonomy; source: AutonomySource } | undefined;
  for (const level of ['flag', 'env', 'guardrails'] as const) {
    const raw = inputs[level];
    if (raw === undefined || raw === null || raw.trim() === '') continue;
    const autonomy = parseAutonomy(raw);
    if (autonomy) {
      winner ??= { autonomy, source: level };
      continue;
    }
    warnings.push(
      `ignored autonomy ${JSON.stringify(raw.trim())} from ${LEVEL_NAMES[level]}: expected full, ask, halt or human`,
    );
  }
  return { ...(winner ?? { autonomy: 'full', source: 'default' }), warnings };
}
