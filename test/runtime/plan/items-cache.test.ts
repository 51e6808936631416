import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parsePlan } from '../../../runtime/plan/parse/index.js';
import { PLAN_CACHE, planItems } from '../../../runtime/plan/items-cache.js';
import { tickPlan } from '../../../compiler/cli/commands/plan.js';

describe("the parsed-plan cache (the Stop hook's turns, plan tick)", () => {
  let dir: string;
  let leo: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'leopold-plan-cache-'));
    leo = join(dir, '.leopold');
    mkdirSync(leo);
  });
  afterEach(() => {
    chmodSync(leo, 0o755);
    rmSync(dir, { recursive: true, force: true });
  });
  const plan = () => join(leo, 'PLAN.md');

  it('parses once, then reads the items back for the same text: equal to a fresh parse', async () => {
    const text = '- [x] One {#one}\n- [ ] (after: #one) Two\n  @on fail -> 1\n';
    const first = await planItems(plan(), text);
    expect(first).toEqual(parsePlan(text, plan()).items);
    const file = JSON.parse(readFileSync(join(leo, PLAN_CACHE), 'utf8')) as { text: string; items: unknown[] };
    expect(file.text).toBe(text);
    expect(await planItems(plan(), text)).toEqual(first);
  });

  it('a hit never parses: the cached items are what the turn gets, for exactly the cached text', async () => {
    const text = '- [ ] One\n';
    const forged = [{ ...parsePlan(text, plan()).items[0]!, text: 'from the cache' }];
    writeFileSync(join(leo, PLAN_CACHE), JSON.stringify({ version: 1, text, items: forged }));
    expect((await planItems(plan(), text))[0]!.text).toBe('from the cache');
    // One byte of difference (a tick) is another plan: parsed again and the cache replaced.
    const ticked = '- [x] One\n';
    const items = await planItems(plan(), ticked);
    expect(items[0]).toMatchObject({ text: 'One', done: true });
    expect(JSON.parse(readFileSync(join(leo, PLAN_CACHE), 'utf8')).text).toBe(ticked);
  });

  it('a tick leaves the parse of the ticked text: equal to a fresh parse, so the next reader need not parse', async () => {
    const text = '\uFEFF# Plan\r\n\r\n- [ ] Première {#one}\r\n- [ ] (after: #one) Second\r\n  @on fail -> 1\r\n';
    writeFileSync(plan(), text);
    expect((await tickPlan(plan(), '#one')).code).toBe(0);
    const after = readFileSync(plan(), 'utf8');
    const kept = JSON.parse(readFileSync(join(leo, PLAN_CACHE), 'utf8')) as { text: string; items: unknown[] };
    expect(kept.text).toBe(after);
    expect(kept.items).toEqual(JSON.parse(JSON.stringify(parsePlan(after, plan()).items)));
  });

  it.each([
    ['malformed JSON', '{"version":1,'],
    ['another version', JSON.stringify({ version: 99, text: '- [ ] One\n', items: [] })],
    ['items that are not a list', JSON.stringify({ version: 1, text: '- [ ] One\n', items: {} })],
  ])('ignores a cache with %s', async (_what, content) => {
    writeFileSync(join(leo, PLAN_CACHE), content);
    expect(await planItems(plan(), '- [ ] One\n')).toEqual(parsePlan('- [ ] One\n', plan()).items);
  });

  it.skipIf(process.getuid?.() === 0)('a cache it cannot write costs nothing but the parse', async () => {
    chmodSync(leo, 0o555);
    expect((await planItems(plan(), '- [ ] One\n')).map((item) => item.text)).toEqual(['One']);
  });
});
