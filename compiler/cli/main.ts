import type { Command } from 'commander';
import { LeopoldError } from '../diagnostics/error.js';
import { EXIT } from './exit.js';
import { ioFailureLine } from './io-error.js';

export { EXIT };

// commander, once buildProgram has loaded it (the plain spellings below never do).
let commander: typeof import('commander') | undefined;

type Register = (program: Command) => void;
type LoadRegister = (argv: readonly string[]) => Promise<Register>;

/**
 * One register function per command file, in help order, each imported only when the
 * command line needs it: `leopold record` (run by a scribe on every write) loads the
 * decision writer, not the compiler, zod's schemas or remark.
 */
const COMMANDS: Readonly<Record<string, LoadRegister>> = {
  compile: async () => (await import('./commands/compile.js')).registerCompile,
  graph: async () => (await import('./commands/graph.js')).registerGraph,
  record: async () => (await import('./commands/record.js')).registerRecord,
  plan: async (argv) => {
    const { registerPlan } = await import('./commands/plan.js');
    // `plan tick` is the scribes' other write: it leaves `plan amend` (the graph checker) unloaded.
    const amend = argv[1] === 'tick' ? undefined : (await import('./commands/plan-amend.js')).registerPlanAmend;
    return (program) => {
      const plan = registerPlan(program);
      amend?.(plan);
    };
  },
  run: async () => (await import('./commands/run.js')).registerRun,
  hook: async () => (await import('./commands/hook.js')).registerHook,
  init: async () => (await import('./commands/init.js')).registerInit,
  simulate: async () => (await import('./commands/simulate.js')).registerSimulate,
  ci: async () => (await import('./commands/ci.js')).registerCi,
  doctor: async () => (await import('./commands/doctor.js')).registerDoctor,
};

/**
 * The `leopold` program. When `argv` starts with a command name only that command is
 * registered (its parsing, help and errors do not depend on the others); anything else
 * (`--help`, `help`, a typo that commander answers with a suggestion) gets all of them.
 */
export async function buildProgram(argv: readonly string[] = []): Promise<Command> {
  commander ??= await import('commander');
  const program = new commander.Command('leopold')
    .description('Compile a .leopold/ plan into a validated graph and a Claude Code workflow.')
    .version('0.1.0')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .configureOutput({
      writeErr: (s) => process.stderr.write(s),
      // One prefix for every CLI error: commander's own `error: …` lines read `leopold: …`.
      outputError: (s, write) => write(s.replace(/^error: /, 'leopold: ')),
    });
  const first = argv[0];
  const names = first !== undefined && Object.hasOwn(COMMANDS, first) ? [first] : Object.keys(COMMANDS);
  const registers = await Promise.all(names.map((name) => COMMANDS[name]!(argv)));
  for (const register of registers) register(program);
  return program;
}

/**
 * The scribes' two commands and the compile a hook or a skill runs, in their plain
 * spellings, run without commander (loading it is a good part of a cold start): `record
 * [--base64 TEXT]`, `plan tick REF [--plan FILE] [--json]` and `compile [PLAN]`, each option
 * at most once and no value starting with `-`. These call the same action commander would,
 * with the options commander would hand it; any other spelling (help, `--opt=value`, an
 * unknown option, a missing value) goes through commander, which owns every usage message.
 * False when `argv` is not one of them.
 */
async function runPlainSpelling(argv: readonly string[]): Promise<boolean> {
  const plain = (value: string | undefined): value is string => value !== undefined && !value.startsWith('-');
  if (argv[0] === 'compile' && (argv.length === 1 || (argv.length === 2 && plain(argv[1])))) {
    const { compileCommand } = await import('./commands/compile.js');
    // No option given: the options schema fills in every default, as for commander's.
    await compileCommand(argv[1], {});
    return true;
  }
  if (argv[0] === 'record') {
    const rest = argv.slice(1);
    if (rest.length === 0) return runRecordWith({});
    if (rest.length === 2 && rest[0] === '--base64' && plain(rest[1])) return runRecordWith({ base64: rest[1] });
    return false;
  }
  if (argv[0] === 'plan' && argv[1] === 'tick' && plain(argv[2])) {
    const options: { plan?: string; json?: boolean } = {};
    for (let i = 3; i < argv.length; i++) {
      if (argv[i] === '--json' && options.json === undefined) options.json = true;
      else if (argv[i] === '--plan' && options.plan === undefined && plain(argv[i + 1])) options.plan = argv[++i];
      else return false;
    }
    const { runTick } = await import('./commands/plan.js');
    await runTick(argv[2], options);
    return true;
  }
  return false;
}

async function runRecordWith(options: { base64?: string }): Promise<true> {
  const { runRecord } = await import('./commands/record.js');
  await runRecord(options);
  return true;
}

/**
 * Runs the CLI. User errors and file-system failures (a read-only or blocked target) print
 * one line and exit 2; plan errors are the command's own exit code; anything else is a
 * bug: print the stack and ask for a report (exit 3).
 */
export async function main(argv: string[]): Promise<number> {
  try {
    if (!(await runPlainSpelling(argv))) {
      const program = await buildProgram(argv);
      await program.parseAsync(argv, { from: 'user' });
    }
    return typeof process.exitCode === 'number' ? process.exitCode : EXIT.ok;
  } catch (error) {
    if (commander && error instanceof commander.CommanderError) {
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
