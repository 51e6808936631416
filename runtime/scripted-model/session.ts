import type { MainStep } from './script.js';

/**
 * The default session player: what a diligent agent does with a Stop-hook block that names
 * an item and no script rule covers it. It copies the exact commands the block reason
 * gives (so whatever CLI path the hook writes is the one used): at a @human node it
 * writes the decision template with concrete values to the record file (an absolute path
 * under `cwd`, as the Write tool wants) and pipes it into `leopold record`; at a work item
 * it records the `verified` receipt the block asks for (its tests, said to pass); then it ticks.
 */
export function defaultSessionTurn(reason: string, protocol: string, item: number, cwd: string): MainStep[] {
  const steps: MainStep[] = [];
  const tick = new RegExp(`(\\S+ plan tick ${item})\\b`).exec(reason)?.[1];
  // How to record is said once, in the run's protocol; the fork's template is in this turn's block.
  const how = /write the JSON with the Write tool to (\S+), then run: (.+)/.exec(protocol);
  const template = /Record the decision with its persona:\n(.*)/.exec(reason);
  if (how && template) {
    const filled = (template[1] ?? '').replace(/<([^<>]*)>/g, (_all, hole: string) => PLACEHOLDER_VALUES[hole] ?? `scripted ${hole}`);
    steps.push({ tool: 'Write', input: { file_path: `${cwd}/${how[1]}`, content: `${filled}\n` } });
    steps.push({ tool: 'Bash', input: { command: how[2], description: `Record the decision for item ${item}` } });
  }
  const receipt = /record it, then .*\n(\{"events":\[\{"event":"verified".*)/.exec(reason);
  if (how && receipt) {
    const filled = (receipt[1] ?? '').replace(/"<[^<>]*>"/g, '"npm test"');
    steps.push({ tool: 'Write', input: { file_path: `${cwd}/${how[1]}`, content: `${filled}\n` } });
    steps.push({ tool: 'Bash', input: { command: how[2], description: `Record the verification of item ${item}` } });
  }
  if (tick) steps.push({ tool: 'Bash', input: { command: tick, description: `Tick item ${item}` } });
  steps.push({ text: `Item ${item} is done.` });
  return steps;
}

/**
 * The default session turn at the run's final review (the Stop hook's block names no item):
 * record that the review found nothing, through the record command the block itself names.
 */
export function defaultFinalReviewTurn(reason: string, cwd: string): MainStep[] {
  const how = /write the JSON with the Write tool to (\S+), then run: (.+)/.exec(reason);
  if (!how || !reason.includes('"event":"final-review"')) return [];
  return [
    { tool: 'Write', input: { file_path: `${cwd}/${how[1]}`, content: '{"events":[{"event":"final-review","findings":[]}]}\n' } },
    { tool: 'Bash', input: { command: how[2], description: 'Record the final review' } },
    { text: 'The final review found nothing.' },
  ];
}

// The decision template's holes (runtime/hooks/stop/reason.ts), filled as a rehearsal persona would.
const PLACEHOLDER_VALUES: Record<string, string> = {
  'one-line title': 'Settle the item as the plan describes it',
  'reversible|irreversible': 'reversible',
  'the CHARTER rule that decided it, verbatim, or silent': 'silent',
  'what you chose': 'Proceed as the plan item describes',
  'the principle or rule': 'bias to action',
  'how to undo it, concretely': 'Revert the working-tree changes this item made',
  name: 'Iris Lang',
  'a specific job, never a generic role': 'Release Manager',
  expertise: 'release planning',
};
