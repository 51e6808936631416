import type { EmbeddedItem, EmbeddedPlan } from './plan.js';

/**
 * The implementer prompt of the minimal loop: the mission, the charter's hard rules and
 * the item, as one string (the host turns a non-string prompt into "[object]").
 */
export function itemPrompt(plan: EmbeddedPlan, item: EmbeddedItem): string {
  const lines = ['You are carrying out one item of a Leopold plan.', '', 'Mission:', plan.mission.trim() || '(none given)', ''];
  if (plan.charterRules.length > 0) {
    lines.push('Charter rules (binding, never break them):', ...plan.charterRules.map((rule) => `- ${rule}`), '');
  }
  lines.push(`Item ${item.index} (${item.id}): ${item.text}`);
  if (item.scenarios.length > 0) lines.push('Acceptance scenarios:', ...item.scenarios.map((s) => `- ${s}`));
  if (item.writes.length > 0) lines.push(`Change only files matching: ${item.writes.join(' ')}`);
  lines.push(
    '',
    'Do the work in the working tree. Do not commit, push or edit .leopold/GUARDRAILS.md.',
    'Reply with a short summary of what you changed and how you checked it.',
  );
  return lines.join('\n');
}
