import { resolve } from 'node:path';

/**
 * The script this CLI was started as (dist/leopold.js, or the bin link to it), for
 * commands that run this same CLI again (`leopold ci`'s steps, the rehearsal's scribe).
 * Not `import.meta.url`: the build splits commands into chunks beside the entry, and a
 * chunk is not something node can run.
 */
export function cliEntry(): string {
  const script = process.argv[1];
  if (!script) throw new Error('cannot tell which script started the CLI (process.argv[1] is empty)');
  return resolve(script);
}
