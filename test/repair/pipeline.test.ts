import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { amendPlanFile } from '../../compiler/cli/amend-plan-file.js';
import { FileError } from '../../runtime/fs/file-error.js';
import { amendText } from '../../compiler/repair/index.js';
import { tempDir } from '../support/temp.js';

// The amendment pipeline on real files: what it judges against, when it writes, and what
// it leaves behind. The CLI paths over it are in test/cli/plan-amend.test.ts and
// test/compile/repair-race.e2e.test.ts.

const block = (...lines: string[]) => `\`\`\`leopold-amend\n${lines.join('\n')}\n\`\`\`\n`;

function planFile(text: string, state?: Record<string, unknown>): string {
  const dir = join(tempDir('leopold-pipeline-'), '.leopold');
  mkdirSync(dir);
  writeFileSync(join(dir, 'PLAN.md'), text);
  if (state) writeFileSync(join(dir, 'state.json'), `${JSON.stringify(state)}\n`);
  return join(dir, 'PLAN.md');
}

const BROKEN = '- [ ] A\n- [ ] @gate B\n  @on fail -> 9\n- [ ] C\n';

describe('amendText', () => {
  it('judges under the context it is given: ROUTE is a repair verb, refused for @feedback', () => {
    const input = { text: BROKEN, file: 'PLAN.md', answer: block('ROUTE 2 fail -> 3'), used: 0 };
    expect(amendText({ ...input, context: 'repair' })).toMatchObject({ ok: true, text: BROKEN.replace('-> 9', '-> 3'), used: 1 });
    const feedback = amendText({ ...input, context: 'feedback' });
    expect(feedback).toMatchObject({ ok: false, failure: 'refused', text: BROKEN, diff: '' });
    expect(feedback.judgement?.refused.map((r) => r.code)).toEqual(['repair-only']);
  });
});

describe('amendPlanFile', () => {
  it('judges against PLAN.md as it is under the lock, not the basis it was given, and says the file drifted', async () => {
    const path = planFile(BROKEN.replace('- [ ] C', '- [x] C'));
    const result = await amendPlanFile({ planPath: path, shown: 'PLAN.md', answer: block('ROUTE 2 fail -> 3'), context: 'repair', basis: Buffer.from(BROKEN) });
    expect(result).toMatchObject({ drifted: true, written: true, used: 1 });
    expect(readFileSync(path, 'utf8')).toBe('- [ ] A\n- [ ] @gate B\n  @on fail -> 3\n- [x] C\n');
    expect(readdirSync(join(path, '..'))).toEqual(['PLAN.md']); // no lock, temp or state file left
  });

  it('spends the active run\'s budget from state.json and counts the change there', async () => {
    const path = planFile('- [ ] A\n', { version: 1, active: true, amendments_used: 2 });
    const result = await amendPlanFile({ planPath: path, shown: 'PLAN.md', answer: block('ADD B'), context: 'feedback' });
    expect(result).toMatchObject({ written: true, used: 3, drifted: false });
    expect(JSON.parse(readFileSync(join(path, '..', 'state.json'), 'utf8'))).toMatchObject({ amendments_used: 3 });
    const over = await amendPlanFile({ planPath: path, shown: 'PLAN.md', answer: block('ADD C'), context: 'feedback' });
    expect(over.written).toBe(false);
    expect(over.outcome.judgement?.refused.map((r) => r.code)).toEqual(['add-budget']);
    expect(readFileSync(path, 'utf8')).toBe('- [ ] A\n- [ ] B\n');
  });

  it('writes nothing when mayWrite says no (compile\'s last check), though the amendment itself was valid', async () => {
    const path = planFile(BROKEN);
    const seen: string[] = [];
    const result = await amendPlanFile({
      planPath: path,
      shown: 'PLAN.md',
      answer: block('ROUTE 2 fail -> 3'),
      context: 'repair',
      mayWrite: (amended) => (seen.push(amended), false),
    });
    expect(seen).toEqual([BROKEN.replace('-> 9', '-> 3')]);
    expect(result).toMatchObject({ written: false, outcome: { ok: true } });
    expect(readFileSync(path, 'utf8')).toBe(BROKEN);
  });

  it('a plan that cannot be read is one FileError line naming it, and the lock is released', async () => {
    const path = join(tempDir('leopold-pipeline-'), 'PLAN.md');
    const failure = await amendPlanFile({ planPath: path, shown: 'PLAN.md', answer: block('ADD B'), context: 'feedback' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(FileError);
    expect((failure as FileError).describe('/nonexistent')).toBe(`cannot read ${path}: no such file or directory (ENOENT)`);
    expect(readdirSync(join(path, '..'))).toEqual([]);
  });
});
