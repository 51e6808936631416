import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parsePlan } from '../../../runtime/plan/parse/index.js';
import { resolveRef } from '../../../runtime/plan/refs.js';
import { tickBytes } from '../../../runtime/plan/tick.js';

function tick(text: string, ref: string) {
  const bytes = Buffer.from(text, 'utf8');
  const decoded = bytes.toString('utf8');
  const ir = parsePlan(decoded, 'PLAN.md');
  const index = resolveRef(ir, ref);
  return { bytes, result: tickBytes(bytes, decoded, ir.items[index! - 1]!) };
}
const changedBytes = (a: Buffer, b: Buffer) => [...a].filter((byte, i) => byte !== b[i]).length;

describe('tickBytes', () => {
  it('flips exactly one byte on a BOM + CRLF plan with multi-byte text before the item', () => {
    const text = '\uFEFF# Plän — ünïcode ✓\r\n\r\n- [x] Done\r\n* [ ] Café 🚀 second {#second}\r\n1. [ ] third\r\n';
    const { bytes, result } = tick(text, '#second');
    expect(result.changed).toBe(true);
    if (!result.changed) return;
    expect(result.bytes.length).toBe(bytes.length);
    expect(changedBytes(bytes, result.bytes)).toBe(1);
    expect(result.bytes.toString('utf8')).toBe(text.replace('* [ ] Café', '* [x] Café'));
    expect(result.bytes.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
  });

  it('an already-done item changes nothing', () => {
    const { result } = tick('- [X] done\n', '1');
    expect(result).toEqual({ changed: false, reason: 'already-done' });
  });

  it('resolveRef: N, #N, #anchor; nothing else', () => {
    const ir = parsePlan('- [ ] a {#alpha}\n- [ ] b\n', 'PLAN.md');
    expect(['1', '#2', '#alpha', '3', '0', '#beta', 'x'].map((r) => resolveRef(ir, r))).toEqual([1, 2, 1, null, null, null, null]);
  });

  it('property: ticking any open item of a generated plan changes exactly one byte, to x', () => {
    const line = fc.record({
      bullet: fc.constantFrom('-', '*', '+', '1.'),
      done: fc.boolean(),
      text: fc.stringMatching(/^[a-zA-Zéü✓🚀 ]{1,12}$/).filter((s) => s.trim().length > 0 && !s.startsWith(' ')),
    });
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 6 }), fc.constantFrom('\n', '\r\n'), fc.boolean(), (lines, eol, bom) => {
        const text = (bom ? '\uFEFF' : '') + lines.map((l) => `${l.bullet} [${l.done ? 'x' : ' '}] ${l.text.trim()}`).join(eol) + eol;
        const bytes = Buffer.from(text, 'utf8');
        const ir = parsePlan(text, 'PLAN.md');
        for (const item of ir.items.filter((i) => !i.done)) {
          const result = tickBytes(bytes, text, item);
          if (!result.changed) return false;
          const diff = [...bytes].map((b, i) => (b !== result.bytes[i] ? i : -1)).filter((i) => i >= 0);
          if (diff.length !== 1 || result.bytes[diff[0]!] !== 0x78) return false;
        }
        return true;
      }),
      { numRuns: 200 },
    );
  });
});
