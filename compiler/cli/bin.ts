import { EXIT, main } from './main.js';

// The `leopold` binary: everything else is importable without side effects.
main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  () => {
    process.exitCode = EXIT.internal;
  },
);
