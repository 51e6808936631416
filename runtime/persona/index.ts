export { acceptPersona, type PersonaVerdict } from './accept.js';
export {
  CATCH_ALL_EXPERTISE,
  COSTUME_WORDS,
  expertiseRefusal,
  GENERIC_ROLE_WORDS,
  GENERIC_ROLES,
  isCatchAllExpertise,
  isGenericRole,
  normaliseRole,
  personaRefusal,
  ROLE_MODIFIERS,
  roleRefusal,
  wordsOf,
} from './generic-role.js';
export { charterRules, hasRuleWord, MAX_CHARTER_RULES } from './charter-rules.js';
export { FORBIDDEN_ACTIONS, personaPrompt, personaPromptWithRules, type PersonaPromptInput } from './prompt.js';
export { judgePersonaAnswer, type PersonaJudgement } from './judge.js';
export {
  PersonaAnswerSchema,
  PersonaForkSchema,
  PersonaSchema,
  personaAnswerJsonSchema,
  type Persona,
  type PersonaAnswer,
  type PersonaFork,
} from './schema.js';
