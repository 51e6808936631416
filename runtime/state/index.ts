/** runtime/state: `.leopold/state.json` schema, pure parsing and transitions, and the locked RMW. */
export * from './schema.js';
export * from './parse.js';
export * from './io.js';
export * from './transitions.js';
export * from './workflow-events.js';
