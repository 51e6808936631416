import { cpSync, readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { compile } from '../../compiler/index.js';
import { embeddedPlanJson } from '../../compiler/emit/index.js';
import { renderText } from '../../compiler/diagnostics/render-text.js';
import { briefOptions, builtLeopold } from './harness.js';
import { tempDir } from '../support/temp.js';

// Golden suite for compile: each folder under fixtures/compile
// holds a project with a .leopold/ brief and the expected workflow-args.json (args.json),
// CompiledPlan as the script embeds it (compiled.json, 2-space, items without their
// defaults) and diagnostics (diagnostics.txt). Compared byte for byte;
// `UPDATE=1 npx vitest run test/compile` rewrites them for review.

const SUITE = 'fixtures/compile';
const UPDATE = process.env.UPDATE === '1';
const cases = readdirSync(SUITE, { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(join(SUITE, d.name, '.leopold', 'PLAN.md')))
  .map((d) => d.name)
  .sort();

let bundle = '';
beforeAll(async () => {
  bundle = (await builtLeopold()).bundle;
});

function compileCase(dir: string) {
  const { text, options } = briefOptions(join(dir, '.leopold'), bundle);
  const result = compile(text, options);
  if (!result.ok) throw new Error(`${dir} did not compile:\n${renderText(result.diagnostics)}`);
  return result;
}

function golden(path: string, actual: string): void {
  if (UPDATE || !existsSync(path)) writeFileSync(path, actual);
  expect(actual).toBe(readFileSync(path, 'utf8'));
}

describe('fixtures/compile', () => {
  it('has cases', () => expect(cases.length).toBeGreaterThanOrEqual(4));

  for (const name of cases) {
    it(`${name}: args.json, compiled.json and diagnostics match the goldens`, () => {
      const dir = join(SUITE, name);
      const result = compileCase(dir);
      golden(join(dir, 'args.json'), result.argsJson);
      golden(join(dir, 'compiled.json'), `${embeddedPlanJson(result.compiled, 2)}\n`);
      golden(join(dir, 'diagnostics.txt'), renderText(result.diagnostics));
      // The script embeds exactly the compiled plan, items without their defaults.
      expect(result.script).toContain(`const PLAN = ${embeddedPlanJson(result.compiled)};`);
    });

    it(`${name}: identical bytes twice and from a copy at another absolute path`, () => {
      const dir = join(SUITE, name);
      const first = compileCase(dir);
      const second = compileCase(dir);
      const copy = join(tempDir('leopold-elsewhere-'), 'deep', 'er', name);
      cpSync(dir, copy, { recursive: true });
      const moved = compileCase(copy);
      for (const other of [second, moved]) {
        expect(other.script).toBe(first.script);
        expect(other.argsJson).toBe(first.argsJson);
      }
      expect(first.script).not.toContain(process.cwd());
      expect(moved.script).not.toContain(copy);
    });
  }
});
