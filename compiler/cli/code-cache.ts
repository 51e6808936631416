import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname } from 'node:path';
import { Script } from 'node:vm';

// A CommonJS bundle run with V8's code cache: the bytecode of the functions it ran when the
// cache was made, so a cold process neither parses nor compiles them again. Node 20 has no
// built-in for this (`module.enableCompileCache` arrived in Node 22), and ES modules take no
// cache, so the bundle is CommonJS and runs through `vm.Script`, as `require` would run it.
// scripts/build.mjs makes the compile command such a bundle (dist/leopold-compile.cjs) and
// writes its cache beside it, after compiling two briefs (scripts/code-cache.mjs).
//
// The cache is only ever a speed-up. V8 refuses one made by another V8 version or under
// other V8 flags, and then compiles from source. But V8 checks neither the source's bytes
// (only its length: a bundle edited in place at the same length would run the old text's
// bytecode) nor, in release builds, its own bytes (a damaged cache aborts the process while
// V8 reads it). And V8's version check leaves out the embedder's own patches (every Node
// 20 reports V8 11.3.244.8). So the cache file starts with the sha256 of the Node version,
// the platform, the bundle and V8's bytes together, and a cache that does not match is never
// handed to V8. V8 still checks its flags itself, and refuses a cache cleanly on those.

/** How one load went with the bundle's code cache. */
export type CodeCacheUse = 'used' | 'rejected by V8' | 'mismatched' | 'absent';

/** The module a bundle exports, and how its code cache served the load. */
export interface LoadedBundle {
  exports: unknown;
  cache: CodeCacheUse;
}

const DIGEST_BYTES = 32;

// What Node's own loader wraps a CommonJS file in, strict as the ES modules the bundle was
// built from (the ESM build of the same code runs strict too).
const WRAPPER_HEAD = '(function (exports, require, module, __filename, __dirname) {"use strict";';
const WRAPPER_TAIL = '\n})';

/** The file beside a bundle that holds its code cache: its digest (digestOf), then V8's bytes. */
export function codeCacheFile(bundle: string): string {
  return `${bundle}.cache`;
}

/** Loads the CommonJS bundle at `bundle` (an absolute path), with its code cache when that matches it. */
export function loadBundle(bundle: string): LoadedBundle {
  const source = readFileSync(bundle);
  const cache = readCache(bundle);
  const v8Bytes = cache === null ? undefined : matchingV8Bytes(source, cache);
  const script = scriptOf(bundle, source, v8Bytes);
  const use: CodeCacheUse = cache === null ? 'absent' : v8Bytes === undefined ? 'mismatched' : script.cachedDataRejected ? 'rejected by V8' : 'used';
  return { exports: run(script, bundle), cache: use };
}

/**
 * Writes the code cache of the bundle at `bundle`: loads it without a cache, lets `warmUp`
 * run what a cold process runs (so V8 has compiled those functions), then saves their
 * bytecode behind its digest, atomically. Returns the cache's size in bytes. Run it in a
 * `node` with no V8 flags, as the CLI runs: V8 refuses a cache made under other flags.
 */
export async function writeCodeCache(bundle: string, warmUp: (exports: unknown) => Promise<void>): Promise<number> {
  const source = readFileSync(bundle);
  const script = scriptOf(bundle, source, undefined);
  await warmUp(run(script, bundle));
  const v8Bytes = script.createCachedData();
  const data = Buffer.concat([digestOf(source, v8Bytes), v8Bytes]);
  const target = codeCacheFile(bundle);
  writeFileSync(`${target}.tmp`, data);
  renameSync(`${target}.tmp`, target);
  return data.length;
}

/** V8's bytes of `cache` when its digest says they were made for `source` on this Node, else undefined. */
function matchingV8Bytes(source: Buffer, cache: Buffer): Buffer | undefined {
  if (cache.length <= DIGEST_BYTES) return undefined;
  const v8Bytes = cache.subarray(DIGEST_BYTES);
  return digestOf(source, v8Bytes).equals(cache.subarray(0, DIGEST_BYTES)) ? v8Bytes : undefined;
}

/** What a cache is made for: this Node on this platform, this bundle, these bytes of V8's. */
function digestOf(source: Buffer, v8Bytes: Buffer): Buffer {
  const node = `${process.version} ${process.platform} ${process.arch}\0`;
  return createHash('sha256').update(node).update(source).update(v8Bytes).digest();
}

function scriptOf(bundle: string, source: Buffer, v8Bytes: Buffer | undefined): Script {
  // The file's name, not its path: the cache carries it, and it must not name one machine's
  // folders. A copy, not basename's result: that is a slice of the path, and V8 saves a
  // slice with the whole string it was cut from.
  const filename = Buffer.from(basename(bundle)).toString('utf8');
  return new Script(`${WRAPPER_HEAD}${source.toString('utf8')}${WRAPPER_TAIL}`, { filename, cachedData: v8Bytes });
}

function run(script: Script, bundle: string): unknown {
  const module = { exports: {} as unknown };
  const wrapper = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: { exports: unknown }, filename: string, dirname: string) => void;
  wrapper(module.exports, createRequire(bundle), module, bundle, dirname(bundle));
  return module.exports;
}

// Far above any real cache (about 1 MB); a larger file is not one.
const MAX_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * The cache file's bytes; null when there is none or it cannot be read (the cache is never
 * needed), or it is not a regular file of a sane size: opened without blocking, so a FIFO
 * in its place cannot hang a compile.
 */
function readCache(bundle: string): Buffer | null {
  let fd: number | undefined;
  try {
    fd = openSync(codeCacheFile(bundle), constants.O_RDONLY | constants.O_NONBLOCK);
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.size > MAX_CACHE_BYTES) return null;
    return readFileSync(fd);
  } catch {
    return null;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
