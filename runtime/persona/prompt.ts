import { charterRules } from './charter-rules.js';
import { personaPromptWithRules, type PersonaPromptInput } from './prompt-text.js';

export { FORBIDDEN_ACTIONS, personaPromptWithRules, type PersonaPromptInput } from './prompt-text.js';

/**
 * The prompt that asks for one persona: the mission, the charter and its hard rules, the
 * fork and item, what is being decided, the forbidden actions and the answer shape.
 */
export function personaPrompt(input: PersonaPromptInput): string {
  return personaPromptWithRules(input, charterRules(input.charter));
}
