import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GraphOptionsSchema, parseOptions } from '../../compiler/brief/options.js';
import { displayPath, readTextFile } from '../../compiler/brief/read-text.js';
import { LeopoldError } from '../../compiler/diagnostics/diagnostic.js';
import { resolvePlanPath } from '../../compiler/cli/io.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'leopold-io-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function usage(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (error instanceof LeopoldError) return error.render();
    throw error;
  }
  throw new Error('expected a LeopoldError');
}

describe('GraphOptionsSchema', () => {
  it('fills defaults from what commander hands over', () => {
    expect(parseOptions(GraphOptionsSchema, { format: 'text' })).toEqual({ json: false, mermaid: false, dot: false, strict: false, format: 'text' });
    expect(parseOptions(GraphOptionsSchema, { dot: true, strict: true, format: 'github' })).toMatchObject({ dot: true, strict: true, format: 'github' });
  });

  it('rejects combined views and unknown formats with one clear line', () => {
    expect(usage(() => parseOptions(GraphOptionsSchema, { json: true, dot: true, format: 'text' }))).toBe('--json and --dot cannot be combined; choose one view');
    expect(usage(() => parseOptions(GraphOptionsSchema, { format: 'xml' }))).toBe('--format must be text, json or github (got "xml")');
    expect(usage(() => parseOptions(GraphOptionsSchema, { format: 'text', strict: 'yes' }))).toMatch(/^--strict: /);
  });
});

describe('resolvePlanPath', () => {
  it('keeps a given path exactly as typed', () => {
    expect(resolvePlanPath('./x/../PLAN.md', root)).toBe('./x/../PLAN.md');
    expect(usage(() => resolvePlanPath('  ', root))).toMatch(/plan path is empty/);
  });

  it('walks up to .leopold/PLAN.md and shows it relative to cwd', () => {
    const project = join(root, 'proj');
    mkdirSync(join(project, '.leopold'), { recursive: true });
    mkdirSync(join(project, 'a', 'b'), { recursive: true });
    expect(resolvePlanPath(undefined, join(project, 'a', 'b'))).toBe('../../.leopold/PLAN.md');
    expect(resolvePlanPath(undefined, project)).toBe('.leopold/PLAN.md');
  });
});

describe('displayPath', () => {
  it('keeps ordinary paths and quotes ones with control characters', () => {
    expect(displayPath('plans/PLAN.md')).toBe('plans/PLAN.md');
    expect(displayPath('a\nb.md')).toBe('"a\\nb.md"');
    const odd = join(root, 'bad\nname.md');
    writeFileSync(odd, Buffer.from([0]));
    expect(usage(() => readTextFile(odd)).split('\n')).toHaveLength(1);
  });
});
