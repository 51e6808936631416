import { EXIT } from './exit.js';
import { main } from './main.js';

// A reader that closes the pipe early (`leopold --help | head`) is not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

// The `leopold` binary: everything else is importable without side effects.
main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  () => {
    process.exitCode = EXIT.internal;
  },
);
