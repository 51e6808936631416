import { Command, CommanderError } from 'commander';
import { LeopoldError } from '../diagnostics/diagnostic.js';
import { EXIT } from './exit.js';
import { registerCi } from './commands/ci.js';
import { ioFailureLine } from './io-error.js';
import { registerCompile } from './commands/compile.js';
import { registerGraph } from './commands/graph.js';
import { registerHook } from './commands/hook.js';
import { registerInit } from './commands/init.js';
import { registerPlan } from './commands/plan.js';
import { registerRecord } from './commands/record.js';
import { registerRun } from './commands/run.js';
import { registerSimulate } from './commands/simulate.js';

export { EXIT };

/** The `leopold` program: one register function per command file. */
export function buildProgram(): Command {
  const program = new Command('leopold')
    .description('Compile a .leopold/ plan into a validated graph and a Claude Code workflow.')
    .version('0.1.0')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .configureOutput({
      writeErr: (s) => process.stderr.write(s),
      // One prefix for every CLI error: commander's own `error: …` lines read `leopold: …`.
      outputError: (s, write) => write(s.replace(/^error: /, 'leopold: ')),
    });
  registerCompile(program);
  registerGraph(program);
  registerRecord(program);
  registerPlan(program);
  registerRun(program);
  registerHook(program);
  registerInit(program);
  registerSimulate(program);
  registerCi(program);
  return program;
}

/**
 * Runs the CLI. User errors and file-system failures (a read-only or blocked target) print
 * one line and exit 2; plan errors are the command's own exit code; anything else is a
 * bug: print the stack and ask for a report (exit 3).
 */
export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv, { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version arrive here with exit code 0.
      return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    if (error instanceof LeopoldError) {
      process.stderr.write(`leopold: ${error.render()}\n`);
      return EXIT.usage;
    }
    const io = ioFailureLine(error, process.cwd());
    if (io !== null) {
      process.stderr.write(`leopold: ${io}\n`);
      return EXIT.usage;
    }
    const stack = error instanceof Error ? (error.stack ?? error.message) : String(error);
    process.stderr.write(`leopold: internal error (please report it with this output)\n${stack}\n`);
    return EXIT.internal;
  }
}
