import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
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

/** Each file's relative imports (static, type-only ones too), as repository paths. */
function localImports(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/^(?:import|export)\s[^'"]*?from\s+'(\.[^']+)'/gm)) {
    out.push(relative(root, join(root, dirname(file), m[1]!.replace(/\.js$/, '.ts'))));
  }
  return out;
}

/** The strongly connected sets of more than one file in the import graph of `files` (Tarjan), each sorted. */
function importCycles(files: readonly string[], edges?: Record<string, string[]>): string[][] {
  const known = new Set(files);
  const next = (file: string) => (edges ? edges[file]! : localImports(file)).filter((f) => known.has(f));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of next(v)) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const set: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        set.push(w);
      } while (w !== v);
      if (set.length > 1) found.push(set.sort());
    }
  };
  for (const file of files) if (!index.has(file)) visit(file);
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

  it('the run kernel loads no engine, and zod only in its state schema', () => {
    expect(importsOf('runtime/run', /\/workflow\/|\/hooks\//)).toEqual([]);
    expect(importsOf('runtime/run', /^zod$/)).toEqual(['runtime/run/schema.ts: zod']);
    expect(importsOf('runtime/plan/parse', /^zod$/)).toEqual([]);
  });

  it('the engines and the commands reach the kernel through its index only (each rule lives in runtime/run)', () => {
    // Not routing, stop conditions, the rescue or the reducer's files directly: the engines
    // perform the kernel's effects, they do not decide. The state's zod schema is for the
    // state file's reader (runtime/state) and the commands.
    const inside = /(^|\/)run\/(?!index\.js$)/;
    for (const dir of ['runtime/workflow', 'runtime/hooks', 'runtime/decisions', 'runtime/persona', 'templates']) expect(importsOf(dir, inside)).toEqual([]);
    const schemaOnly = (found: string[]) => found.filter((line) => !/run\/schema\.js$/.test(line));
    expect(schemaOnly(importsOf('compiler', inside))).toEqual([]);
    expect(schemaOnly(importsOf('runtime/state', inside))).toEqual([]);
  });

  it('no import circles in runtime/, type imports included', () => {
    const cycles = importCycles(sources('runtime'));
    expect(cycles).toEqual([]);
    // The check finds a circle when there is one.
    expect(importCycles(['a.ts', 'b.ts'], { 'a.ts': ['b.ts'], 'b.ts': ['a.ts'] })).toEqual([['a.ts', 'b.ts']]);
  });

  it('the check catches a violation (a made-up import is found)', () => {
    const probe = /(^|\/)compiler\//;
    expect(probe.test('../../compiler/graph/index.js')).toBe(true);
    expect(probe.test('../plan/schema.js')).toBe(false);
  });
});
