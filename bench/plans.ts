/**
 * Deterministic generators of PLAN.md texts, shared by the benches. generatePlan (the
 * realistic one) was used once to write fixtures/plans/huge; generateChecklist is the
 * plainest plan there is. Same arguments always give the same bytes.
 *
 * The shape imitates a hand-written plan: a heading and a line of prose every 20 items,
 * dependencies on recent items (numbers and anchors), a few gates / tools / verifies with
 * routes, emit/needs pairs, scenarios, write scopes, nested items and one fenced block
 * per 100 items. Every reference points backwards or at an existing later item, so the
 * plan is valid: a bench measures the normal path, not the error path.
 */

/** Seeded PRNG (mulberry32): no Math.random, so the text never changes between runs. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const VERBS = ['Implement', 'Refactor', 'Document', 'Test', 'Wire up', 'Review', 'Harden', 'Measure'];
const NOUNS = ['the parser', 'the cache', 'auth tokens', 'the CLI', 'error messages', 'the schema', 'logging', 'the build'];

/** A plan of `items` task items (LF line endings, final newline). */
export function generatePlan(items: number, seed = 1): string {
  const rand = prng(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)] as T;
  const lines: string[] = ['# Generated plan', '', `A generated plan of ${items} items for benchmarks and fixtures.`, ''];
  const emitted: string[] = [];
  for (let i = 1; i <= items; i++) {
    if (i % 20 === 1) {
      lines.push('', `## Phase ${Math.ceil(i / 20)}`, '', `Prose for phase ${Math.ceil(i / 20)}: why these steps come together.`, '');
    }
    if (i % 100 === 50) {
      lines.push('```sh', `npm run step-${i}`, 'echo "- [ ] not an item"', '```', '');
    }
    const nested = i % 5 === 0 && i % 20 !== 1;
    const indent = nested ? '  ' : '';
    const done = i <= items / 10 && rand() < 0.7;
    const markers: string[] = [];
    if (i > 1 && rand() < 0.6) {
      const a = Math.max(1, i - 1 - Math.floor(rand() * 10));
      const refs = [a % 10 === 0 ? `#step-${a}` : String(a)];
      if (i > 2 && rand() < 0.3) refs.push(String(Math.max(1, i - 1 - Math.floor(rand() * 20))));
      markers.push(`(after: ${refs.join(rand() < 0.5 ? ', ' : ' ')})`);
    }
    let kind = '';
    let text = `${pick(VERBS)} ${pick(NOUNS)} for part ${i} with **care** and \`fn${i}()\``;
    if (i % 11 === 0) {
      kind = 'tool';
      text = `\`npm test -- part-${i}\` runs the checks`;
    } else if (i % 7 === 0) {
      kind = 'gate';
      text = `${pick(['security', 'perf', 'api'])} Review part ${i}`;
    } else if (i % 13 === 0) {
      kind = 'verify';
    }
    if (kind) markers.push(`@${kind}`);
    const anchor = i % 10 === 0 ? ` {#step-${i}}` : '';
    lines.push(`${indent}- [${done ? 'x' : ' '}] ${[...markers, text].join(' ')}${anchor}`);
    const sub = `${indent}  `;
    if (i % 3 === 0) lines.push(`${sub}continued on a second line of the same paragraph.`);
    if (kind === 'gate' || kind === 'tool') {
      const later = Math.min(items, i + 1 + Math.floor(rand() * 5));
      if (later > i) lines.push(`${sub}@on fail -> ${later}`);
      if (kind === 'tool' && later > i) lines.push(`${sub}@on exit!=0 -> #${later}`);
    }
    if (i % 9 === 0) {
      const key = `artifact-${i}`;
      lines.push(`${sub}@emit ${key}=ready`);
      emitted.push(key);
      if (kind === '' && i + 1 <= items) lines.push(`${sub}@on ${key}=ready -> ${i + 1}`);
    }
    if (i % 9 === 4 && emitted.length > 0) {
      const keys = emitted.slice(-2);
      lines.push(`${sub}@needs ${keys.join(rand() < 0.5 ? ', ' : ' ')}`);
    }
    if (i % 4 === 0) lines.push(`${sub}@scenario part ${i} behaves as described`);
    if (i % 17 === 0) lines.push(`${sub}@writes src/part-${i}/** test/part-${i}.test.ts`);
  }
  lines.push('');
  return lines.join('\n');
}

/** A plain checklist of `items` one-line open items: no markers, so no graph (the wave loop). */
export function generateChecklist(items: number): string {
  return ['# Plan', '', ...Array.from({ length: items }, (_, i) => `- [ ] Step ${i + 1}: update module ${i + 1} and its tests`), ''].join('\n');
}
