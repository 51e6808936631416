import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { charterRules } from '../../../runtime/persona/charter-rules.js';
import { tempDir } from '../../support/temp.js';

const CHARTER = '# Charter\n\n## Never\n\n- Never drop a table.\n- Never push on Fridays.\n\nPlain prose.\n';
const EDITED = '# Charter\n\n## Never\n\n- Never drop a table.\n\nYou must not ship secrets.\n';

// A fresh copy of the module each time: its per-process memory of the last lift is empty,
// so what it returns comes from the cache file or from a new lift.
async function freshCache(): Promise<typeof import('../../../runtime/persona/charter-rules-cache.js')> {
  vi.resetModules();
  return import('../../../runtime/persona/charter-rules-cache.js');
}

let dir: string;
beforeEach(() => {
  dir = tempDir('leopold-charter-cache-');
  writeFileSync(join(dir, 'CHARTER.md'), CHARTER);
});

const cacheFile = () => join(dir, '.CHARTER.md.rules');
const readCache = () => JSON.parse(readFileSync(cacheFile(), 'utf8')) as { lifter: string; charter: string; rules: string[] };

describe('liftedCharterRules', () => {
  it('lifts what charterRules lifts and keeps the lift with the whole charter text', async () => {
    const { liftedCharterRules } = await freshCache();
    expect(await liftedCharterRules(dir)).toEqual(charterRules(CHARTER));
    expect(readCache()).toEqual({ lifter: 'source', charter: CHARTER, rules: charterRules(CHARTER) });
  });

  it('reuses the kept lift while the charter text and the lifter are the same', async () => {
    await (await freshCache()).liftedCharterRules(dir);
    // Mark the kept rules: a reused lift returns the mark, a new lift would not.
    writeFileSync(cacheFile(), JSON.stringify({ ...readCache(), rules: ['kept'] }));
    expect(await (await freshCache()).liftedCharterRules(dir)).toEqual(['kept']);
  });

  it('lifts again when CHARTER.md changes, in the same process and in a new one', async () => {
    const { liftedCharterRules } = await freshCache();
    await liftedCharterRules(dir);
    writeFileSync(join(dir, 'CHARTER.md'), EDITED);
    expect(await liftedCharterRules(dir)).toEqual(charterRules(EDITED));
    expect(charterRules(EDITED)).not.toEqual(charterRules(CHARTER));
    writeFileSync(join(dir, 'CHARTER.md'), CHARTER);
    expect(await (await freshCache()).liftedCharterRules(dir)).toEqual(charterRules(CHARTER));
    expect(readCache().charter).toBe(CHARTER);
  });

  it('never reuses a lift made by another lifter, or a file it cannot read as one', async () => {
    for (const stale of [JSON.stringify({ lifter: 'an older leopold', charter: CHARTER, rules: ['stale'] }), '{"lifter":"source","charter":', JSON.stringify({ lifter: 'source', charter: CHARTER, rules: [1] })]) {
      writeFileSync(cacheFile(), stale);
      expect(await (await freshCache()).liftedCharterRules(dir)).toEqual(charterRules(CHARTER));
      expect(readCache().rules).toEqual(charterRules(CHARTER));
    }
  });

  it('treats a missing CHARTER.md as an empty charter', async () => {
    writeFileSync(join(dir, 'CHARTER.md'), '');
    expect(await (await freshCache()).liftedCharterRules(dir)).toEqual([]);
    expect(existsSync(cacheFile())).toBe(true);
    const empty = tempDir('leopold-charter-none-');
    expect(await (await freshCache()).liftedCharterRules(empty)).toEqual([]);
  });
});
