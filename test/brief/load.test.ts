import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findBriefDir } from '../../compiler/brief/find.js';
import { loadBrief, readGuardrails, readGuardrailsText } from '../../compiler/brief/load.js';
import { readTextFile } from '../../compiler/brief/read-text.js';
import { DEFAULT_GUARDRAILS } from '../../compiler/brief/guardrails.js';
import { LeopoldError } from '../../compiler/diagnostics/diagnostic.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'leopold-brief-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function errorOf(fn: () => unknown): LeopoldError {
  try {
    fn();
  } catch (error) {
    if (error instanceof LeopoldError) return error;
    throw error;
  }
  throw new Error('expected a LeopoldError');
}

describe('findBriefDir', () => {
  it('walks up to the nearest .leopold directory', () => {
    const project = join(root, 'walk');
    mkdirSync(join(project, '.leopold'), { recursive: true });
    mkdirSync(join(project, 'a', 'b', 'c'), { recursive: true });
    expect(findBriefDir(join(project, 'a', 'b', 'c'))).toBe(join(project, '.leopold'));
    expect(findBriefDir(project)).toBe(join(project, '.leopold'));
  });

  it('prefers the nearest one and ignores a .leopold file', () => {
    const outer = join(root, 'nest');
    mkdirSync(join(outer, '.leopold'), { recursive: true });
    mkdirSync(join(outer, 'inner', '.leopold'), { recursive: true });
    mkdirSync(join(outer, 'inner', 'deep', 'x'), { recursive: true });
    writeFileSync(join(outer, 'inner', 'deep', '.leopold'), 'not a dir');
    expect(findBriefDir(join(outer, 'inner', 'deep', 'x'))).toBe(join(outer, 'inner', '.leopold'));
  });

  it('returns null when no ancestor has one', () => {
    const lonely = join(root, 'lonely', 'x');
    mkdirSync(lonely, { recursive: true });
    // The temp root itself sits under /tmp, which has no .leopold (checked, not assumed).
    const found = findBriefDir(lonely);
    expect(found === null || !found.startsWith(root)).toBe(true);
  });

  it('resolves relative start directories', () => {
    const project = join(root, 'rel');
    mkdirSync(join(project, '.leopold', 'sub'), { recursive: true });
    const cwd = process.cwd();
    try {
      process.chdir(join(project, '.leopold', 'sub'));
      expect(findBriefDir('.')).toBe(join(project, '.leopold'));
    } finally {
      process.chdir(cwd);
    }
  });
});

describe('loadBrief', () => {
  it('reads the four files; optional ones default to empty', () => {
    const dir = join(root, 'load', '.leopold');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'PLAN.md'), '- [ ] one\n');
    writeFileSync(join(dir, 'MISSION.md'), 'Ship it.\n');
    const brief = loadBrief(dir);
    expect(brief).toMatchObject({ dir, mission: 'Ship it.\n', charter: '', guardrails: '', plan: '- [ ] one\n' });
    expect(brief.paths.plan).toBe(join(dir, 'PLAN.md'));
  });

  it('a missing PLAN.md is a LeopoldError naming the path', () => {
    const dir = join(root, 'noplan', '.leopold');
    mkdirSync(dir, { recursive: true });
    const error = errorOf(() => loadBrief(dir));
    expect(error.render()).toBe(`${join(dir, 'PLAN.md')}: no such file (expected a plan file)`);
  });
});

describe('readTextFile', () => {
  const dir = join(root, 'read');
  mkdirSync(dir, { recursive: true });

  it('keeps the BOM and CRLF bytes', () => {
    writeFileSync(join(dir, 'bom.md'), '\uFEFF- [ ] a\r\n');
    expect(readTextFile(join(dir, 'bom.md'))).toBe('\uFEFF- [ ] a\r\n');
  });

  it('names the path for a directory, binary data and invalid UTF-8', () => {
    expect(errorOf(() => readTextFile(dir, 'plan file')).render()).toBe(`${dir}: is a directory, expected a plan file`);
    writeFileSync(join(dir, 'nul.md'), Buffer.from([0x2d, 0x20, 0x00, 0x01]));
    expect(errorOf(() => readTextFile(join(dir, 'nul.md'), 'plan file')).render()).toBe(
      `${join(dir, 'nul.md')}: looks binary (NUL byte at offset 2), expected a UTF-8 plan file`,
    );
    writeFileSync(join(dir, 'latin1.md'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    expect(errorOf(() => readTextFile(join(dir, 'latin1.md'), 'plan file')).render()).toBe(
      `${join(dir, 'latin1.md')}:1:4: is not valid UTF-8 text (byte 0xe9), expected a UTF-8 plan file`,
    );
  });

  it('names the path for a missing file and a broken parent', () => {
    expect(errorOf(() => readTextFile('no/such/PLAN.md', 'plan file')).render()).toBe('no/such/PLAN.md: no such file (expected a plan file)');
    writeFileSync(join(dir, 'file'), 'x');
    expect(errorOf(() => readTextFile(join(dir, 'file', 'PLAN.md'))).message).toMatch(/not a directory/);
  });

  it('names the path for a symlink loop', () => {
    symlinkSync(join(dir, 'loop-b'), join(dir, 'loop-a'));
    symlinkSync(join(dir, 'loop-a'), join(dir, 'loop-b'));
    expect(errorOf(() => readTextFile(join(dir, 'loop-a'))).render()).toBe(`${join(dir, 'loop-a')}: cannot be read: too many symbolic links`);
  });

  // Root ignores file modes, so chmod 000 cannot produce EACCES there; run it only as a normal user.
  it.skipIf(process.getuid?.() === 0)('names the path for an unreadable file (EACCES)', () => {
    writeFileSync(join(dir, 'secret.md'), 'x');
    chmodSync(join(dir, 'secret.md'), 0o000);
    expect(errorOf(() => readTextFile(join(dir, 'secret.md'))).render()).toBe(`${join(dir, 'secret.md')}: cannot be read: permission denied`);
  });
});

describe('readGuardrails', () => {
  it('missing file → defaults, no diagnostics; bad values → warnings with the path', () => {
    const dir = join(root, 'guard');
    mkdirSync(dir, { recursive: true });
    expect(readGuardrails(join(dir, 'GUARDRAILS.md'))).toEqual({ guardrails: DEFAULT_GUARDRAILS, diagnostics: [], text: '' });
    writeFileSync(join(dir, 'GUARDRAILS.md'), 'max_windows: many\n');
    const { diagnostics } = readGuardrails(join(dir, 'GUARDRAILS.md'));
    expect(diagnostics[0]).toMatchObject({ code: 'bad-guardrail', file: join(dir, 'GUARDRAILS.md'), line: 1, column: 14 });
  });

  it('a character device (the sandbox placeholder for a missing protected file, under an armed lock) reads as missing', () => {
    // /dev/null is the character device every Linux and macOS has.
    expect(readGuardrailsText('/dev/null')).toBe('');
    expect(readGuardrails('/dev/null')).toEqual({ guardrails: DEFAULT_GUARDRAILS, diagnostics: [], text: '' });
  });

  it('a GUARDRAILS.md that is a directory is a LeopoldError', () => {
    const dir = join(root, 'guard-dir');
    mkdirSync(join(dir, 'GUARDRAILS.md'), { recursive: true });
    expect(errorOf(() => readGuardrails(join(dir, 'GUARDRAILS.md'))).message).toMatch(/is a directory/);
  });
});
