/** The four brief files, by role. Kept apart from load.ts so path lookups do not load the GUARDRAILS parser. */
export const BRIEF_FILES = {
  mission: 'MISSION.md',
  charter: 'CHARTER.md',
  guardrails: 'GUARDRAILS.md',
  plan: 'PLAN.md',
} as const;
