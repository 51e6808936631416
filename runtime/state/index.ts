/** runtime/state: `.leopold/state.json` as a file: its schema (the kernel's, runtime/run/schema.ts), pure parsing, and the locked read-modify-write. */
export * from '../run/schema.js';
export * from './parse.js';
export * from './io.js';
