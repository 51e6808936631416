import { Budget, BudgetSpent, stepBudget } from '../shell/budget.js';
import type { Finding } from '../findings.js';
import { MAX_COMMAND_CHARS, Walk, type GuardContext, type Runners } from './command.js';
import { runRunner, RUNNERS } from './runners.js';

// The guard's entry: a walk over one command, with the runners it dispatches to. Apart from
// command.ts so that the walk and the runners (which call back into it) do not import each other.

const RUNNER_TABLE: Runners = { has: (base) => Object.hasOwn(RUNNERS, base), run: runRunner };

/**
 * Everything a Bash command would do that a run locks. Reads files only through the
 * optional `readFile`/`realpath`/`gitAlias`/`which`/`listDir` edges; never throws: an
 * internal error, a parse failure or a spent step budget is an `unjudged` finding.
 */
export function analyzeCommand(command: string, ctx: GuardContext, budget = new Budget(stepBudget(command))): Finding[] {
  const walk = new Walk(command, ctx, budget, RUNNER_TABLE);
  try {
    if (command.length > MAX_COMMAND_CHARS) {
      walk.add({ lock: 'unjudged', what: 'the command is longer than 1 MiB; split it up', at: command.slice(0, 60).trim() });
      walk.named(command, 'the command');
    } else {
      walk.script(command, false);
      walk.finish();
    }
  } catch (error) {
    // Never rethrow: whatever went wrong, the answer is a denial that says why.
    walk.findings.push({
      lock: 'unjudged',
      what: error instanceof BudgetSpent ? 'the command is too complex for the guard to judge; split it up' : 'the guard hit an internal error judging this command; write it more simply',
      instead: 'split the command into simpler calls',
    });
  }
  return walk.findings;
}

