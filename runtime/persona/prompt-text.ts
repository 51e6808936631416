import { GENERIC_ROLES } from './generic-role.js';
import type { PersonaFork } from './schema.js';

/** What a persona may never do, whatever it decides (docs/decisions.md), said plainly. */
export const FORBIDDEN_ACTIONS: readonly string[] = [
  'commit, push, force-push, tag, publish a package or open a pull request anywhere outside this machine',
  'raise max_iterations, max_failures or any other budget or limit',
  'clear the kill switch (.leopold/STOP)',
  'edit .leopold/GUARDRAILS.md',
];

/** What a leopold-amend block may say at a deadlock, in both engines' repair prompts: the bounds of a runtime repair. */
export const AMEND_BOUNDS =
  '`ROUTE <item> <condition> -> <target>` re-points a route the item already declares; `ADD [(after: N)] <text>` appends plain work. Nothing is deleted, edited, ticked or unticked, and GUARDRAILS.md is never touched.';

/** The decision protocol every worker and persona prompt carries (docs/decisions.md). */
export const DECISION_PROTOCOL = [
  'Decision protocol: classify every fork by reversibility and by how clearly the charter covers it.',
  'Only an irreversible fork the charter is ambiguous about stops to ask; mission-premise changes, charter contradictions and anything GUARDRAILS gates always stop.',
  'Everything else: decide, record it with how to undo it, and carry on.',
  'Tie-breaking principles, in order: completeness, boil lakes not oceans, pragmatism, DRY, explicit over clever, bias to action.',
].join('\n');

const FORK_NAMES: Readonly<Record<PersonaFork, string>> = {
  human: 'a @human node: the plan asked for a person here, and you stand in for one',
  escalation: 'an escalation: a worker hit a fork it could not settle from the charter',
  repair: 'a repair: the plan graph is broken or deadlocked and must be mended within its bounds',
  'repeated-failure': 'a repeated failure: the same kind of failure keeps happening and needs a genuinely different approach',
};

/** Everything a synthesis needs: the brief, the fork, the item and what is being decided. */
export interface PersonaPromptInput {
  mission: string;
  charter: string;
  fork: PersonaFork;
  item: { index: number; text: string };
  deciding: string;
}

const block = (title: string, body: string) => `## ${title}\n\n${body.trim() === '' ? '(empty)' : body.trim()}`;

// Kept apart from prompt.ts so the workflow bundle (which embeds the lifted rules) never
// loads the markdown parser charterRules needs.

/**
 * The prompt that asks for one persona, given the charter's lifted rules: the mission, the charter and its hard rules, the
 * fork and item, what is being decided, the forbidden actions and the answer shape.
 */
export function personaPromptWithRules(input: PersonaPromptInput, rules: readonly string[]): string {
  return [
    'Choose the one person best placed to make the decision below for this project, and answer as that role.',
    'Answer with a JSON object: { "name", "role", "expertise": [..], "optimizesFor": [..], "rationale" }.',
    `The role must be a specific job (e.g. "Release Engineer", "Payments Compliance Lead"), never a generic one: ${GENERIC_ROLES.join(', ')}.`,
    block('Mission (MISSION.md)', input.mission),
    block('Charter (CHARTER.md)', input.charter),
    block(
      'Hard rules (binding, lifted from the charter; the persona cannot change them)',
      rules.length === 0 ? '(none)' : rules.map((r) => `- ${r}`).join('\n'),
    ),
    block('Fork', FORK_NAMES[input.fork]),
    block('Item', `item ${input.item.index}: ${input.item.text}`),
    block('What is being decided', input.deciding),
    block(
      'This persona may never',
      `${FORBIDDEN_ACTIONS.map((a) => `- ${a}`).join('\n')}\n\nThe guard enforces what it can; the rest is on you. Decisions never ship: they are recorded with how to undo them.`,
    ),
  ].join('\n\n');
}
