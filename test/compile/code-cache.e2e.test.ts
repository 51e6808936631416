import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { copyDist, root } from '../support/built-dist.js';
import { tempDir } from '../support/temp.js';

// The built CLI runs `leopold compile` from dist/leopold-compile.cjs with the V8 code cache
// the build wrote beside it (compiler/cli/code-cache.ts). The cache may only make compile
// faster: these tests run the built binary with the cache as built, gone, damaged, refused
// by V8 (another V8 flag), and beside a bundle edited after the build, and compare what
// each run wrote and printed.

const BUNDLE = 'leopold-compile.cjs';
const CACHE = `${BUNDLE}.cache`;
const SCRIPT = '.claude/workflows/leopold-run.js';
const ARGS = '.leopold/workflow-args.json';

/** A private copy of dist/, as the build left it. */
async function distCopy(): Promise<string> {
  const dist = join(tempDir('leopold-code-cache-dist-'), 'dist');
  await copyDist({ tree: dist });
  return dist;
}

let built = '';
beforeAll(async () => {
  built = await distCopy();
});

/** How `node [flags]` loads the compile bundle of `dist`: what code-cache.ts says of its cache. */
function cacheUse(dist: string, flags: readonly string[] = []): string {
  const probe = `const { loadBundle } = await import(${JSON.stringify(join(dist, 'leopold-code-cache.js'))}); process.stdout.write(loadBundle(${JSON.stringify(join(dist, BUNDLE))}).cache);`;
  const out = spawnSync(process.execPath, [...flags, '--input-type=module', '-e', probe], { encoding: 'utf8' });
  expect(out.status, out.stderr).toBe(0);
  return out.stdout;
}

/** The briefs compiled under every variant: two valid plans, one with errors, one missing. */
const CASES = [
  { name: 'example', brief: 'fixtures/compile/example/.leopold', args: [] },
  { name: 'routed-unicode', brief: 'fixtures/compile/routed-unicode/.leopold', args: [] },
  { name: 'dangling route', brief: 'fixtures/repair/dangling-route', args: [] },
  { name: 'missing plan', brief: 'fixtures/compile/example/.leopold', args: ['.leopold/NOPE.md'] },
] as const;

/** What `node [flags] dist/leopold.js compile` did to a fresh copy of each case's brief. */
function compileEach(dist: string, flags: readonly string[] = []) {
  return CASES.map(({ name, brief, args }) => {
    const project = tempDir('leopold-code-cache-project-');
    cpSync(join(root, brief), join(project, '.leopold'), { recursive: true });
    const out = spawnSync(process.execPath, [...flags, join(dist, 'leopold.js'), 'compile', ...args], {
      cwd: project,
      encoding: 'utf8',
      env: { ...process.env, LEOPOLD_AUTONOMY: '' },
    });
    const written = (file: string) => (existsSync(join(project, file)) ? readFileSync(join(project, file), 'utf8') : null);
    return { name, code: out.status, stdout: out.stdout, stderr: out.stderr, script: written(SCRIPT), args: written(ARGS) };
  });
}

describe('the compile bundle and its code cache', () => {
  it('the build writes a cache V8 takes, wherever dist/ is copied, and it names no folder of the machine that built it', () => {
    expect(cacheUse(built)).toBe('used');
    const bytes = readFileSync(join(built, CACHE));
    for (const folder of [root, built]) expect(bytes.includes(Buffer.from(folder)), folder).toBe(false);
  });

  it('compile writes and prints the same with the cache, empty, damaged, truncated, or refused by V8', async () => {
    const asBuilt = compileEach(built);
    expect(asBuilt.map(({ name, code }) => [name, code])).toEqual([
      ['example', 0],
      ['routed-unicode', 0],
      ['dangling route', 1],
      ['missing plan', 2],
    ]);
    // A user error from the bundle's own copy of LeopoldError is still one line, not a stack.
    expect(asBuilt[3]!.stderr).toBe('leopold: .leopold/NOPE.md: no such file (expected a plan file)\n');

    const empty = await distCopy();
    writeFileSync(join(empty, CACHE), '');
    const damaged = await distCopy();
    const bytes = readFileSync(join(damaged, CACHE));
    // The middle of V8's own bytes: handed to V8, this aborts the process (measured on Node 20).
    for (let i = bytes.length >> 1; i < (bytes.length >> 1) + 400; i++) bytes[i]! ^= 0x5a;
    writeFileSync(join(damaged, CACHE), bytes);
    const truncated = await distCopy();
    writeFileSync(join(truncated, CACHE), readFileSync(join(truncated, CACHE)).subarray(0, 10));

    for (const [variant, dist, flags, use] of [
      ['empty', empty, [], 'mismatched'],
      ['damaged', damaged, [], 'mismatched'],
      ['truncated', truncated, [], 'mismatched'],
      ['refused by V8 (--no-opt)', built, ['--no-opt'], 'rejected by V8'],
    ] as const) {
      expect(cacheUse(dist, flags), variant).toBe(use);
      expect(compileEach(dist, flags), variant).toEqual(asBuilt);
    }
  });

  it('with the cache file deleted, compile runs from source and writes the same', async () => {
    const dist = await distCopy();
    rmSync(join(dist, CACHE));
    expect(cacheUse(dist)).toBe('absent');
    expect(compileEach(dist)).toEqual(compileEach(built));
  });

  it('a FIFO where the cache should be is passed over without waiting for a writer', async () => {
    const dist = await distCopy();
    rmSync(join(dist, CACHE));
    expect(spawnSync('mkfifo', [join(dist, CACHE)]).status).toBe(0);
    expect(compileEach(dist)).toEqual(compileEach(built));
  });

  it('without the bundle, compile says the install is broken in one line and exits 2', async () => {
    const dist = await distCopy();
    rmSync(join(dist, BUNDLE));
    const missing = compileEach(dist);
    for (const run of missing) {
      expect(run.code, run.name).toBe(2);
      expect(run.stderr, run.name).toBe(`leopold: cannot load the compile command from ${join(dist, BUNDLE)} (ENOENT); reinstall Leopold, or run npm run build in its checkout\n`);
      expect([run.script, run.args], run.name).toEqual([null, null]);
    }
  });

  it('a bundle edited after the build runs as edited, even at the same length, not as the cache remembers it', async () => {
    const dist = await distCopy();
    const source = readFileSync(join(dist, BUNDLE), 'utf8');
    expect(source.split('`wrote ').length).toBe(2);
    writeFileSync(join(dist, BUNDLE), source.replace('`wrote ', '`WROTE '));
    expect(cacheUse(dist)).toBe('mismatched');
    const [example] = compileEach(dist);
    expect(example!.code).toBe(0);
    expect(example!.stderr).toMatch(/^leopold: WROTE \.claude\/workflows\/leopold-run\.js/);
  });
});
