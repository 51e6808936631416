import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// The layering docs/architecture.md states, checked the way its grep lines check it: every
// static and dynamic import specifier under a folder, matched against what it must not reach.
const root = join(import.meta.dirname, '..', '..');

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)));
}

/** `file: specifier` for every import of a file under `dir` whose specifier matches `banned`. */
function importsOf(dir: string, banned: RegExp): string[] {
  const found: string[] = [];
  for (const file of sources(dir)) {
    const text = readFileSync(join(root, file), 'utf8');
    for (const m of text.matchAll(/(?:from\s+|import\s*\(\s*|^import\s+)'([^']+)'/gm)) if (banned.test(m[1]!)) found.push(`${file}: ${m[1]}`);
  }
  return found;
}

describe('layers: runtime/ owns the model, the compiler and the two engines sit on it', () => {
  it('the folders exist (so an empty answer below means something)', () => {
    for (const dir of ['runtime', 'runtime/workflow', 'runtime/hooks', 'runtime/run', 'runtime/plan/parse']) expect(sources(dir).length).toBeGreaterThan(0);
  });

  it('nothing under runtime/ imports compiler/', () => {
    expect(importsOf('runtime', /(^|\/)compiler\//)).toEqual([]);
  });

  it('runtime/workflow and runtime/hooks never import each other', () => {
    expect(importsOf('runtime/workflow', /(^|\.\.\/)hooks\//)).toEqual([]);
    expect(importsOf('runtime/hooks', /\.\.\/workflow\//)).toEqual([]);
  });

  it('the run model and the plan language load neither zod nor an engine', () => {
    expect(importsOf('runtime/run', /^zod$|\/workflow\/|\/hooks\//)).toEqual([]);
    expect(importsOf('runtime/plan/parse', /^zod$/)).toEqual([]);
  });

  it('the check catches a violation (a made-up import is found)', () => {
    const probe = /(^|\/)compiler\//;
    expect(probe.test('../../compiler/graph/index.js')).toBe(true);
    expect(probe.test('../plan/schema.js')).toBe(false);
  });
});
