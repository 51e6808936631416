import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diagnostic } from '../../compiler/diagnostics/diagnostic.js';
import { dot, dotString } from '../../compiler/graph-output/dot.js';
import { GraphJsonSchema, graphJson, renderGraphJson } from '../../compiler/graph-output/json.js';
import { escapeMermaid, mermaid } from '../../compiler/graph-output/mermaid.js';
import type { PlanAnalysis } from '../../compiler/graph-output/analysis.js';
import { emit, item, need, plan, route } from '../support/plan-items.js';
import { mermaidParse } from './mermaid-parse.js';

const HOSTILE = [
  'Say "hi" [now] {ok} (x) |pipe| a->b --> c -.-> d ==> e',
  'Backticks `npm test` and ```fence``` and #35; and # hash ; semi %% comment',
  'HTML \\ backslash <b>bold</b> & <script>alert(1)</script> &amp;',
  'Unicode: café, 日本語, emoji 🚀👩‍💻, RTL \u202Eevil\u202C, zero\u200Bwidth',
  'end subgraph style classDef click call graph TD',
  'Tabs\tand\r\nnew\nlines\u2028and NUL-ish \u0007 bell',
];

const everyKind: PlanAnalysis = {
  ir: plan([
    item(1, { text: 'Write the parser', done: true, emits: [emit('built')], anchor: 'parser' }),
    item(2, { text: 'Review auth', kind: 'gate', label: 'security', deps: [1], routes: [route('fail', 6), route('ok', 3)] }),
    item(3, { text: 'Check the build', kind: 'verify', deps: [2], scenarios: ['builds clean'], writes: ['src/**'] }),
    item(4, { text: 'npm test', kind: 'tool', command: 'npm test', deps: [3], routes: [route('exit!=0', 0, ''), route('exit=0', 9, '#deploy')] }),
    item(5, { text: 'Owner signs off', kind: 'human', label: 'ops', deps: [4], needs: [need('built')] }),
    item(6, { text: 'Amend the plan', kind: 'feedback', routes: [route('retry', 2)] }),
  ]),
  diagnostics: [diagnostic('dangling-edge', '.leopold/PLAN.md', { line: 4, column: 3, endLine: 4, endColumn: 10 }, 'item 4 routes nowhere', [4])],
  waves: [['i2'], ['i3'], ['i4'], ['i5']],
};

// Any Unicode, plus strings made only of characters Mermaid's grammar cares about.
const MERMAID_TEXT = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.string({ unit: fc.constantFrom(...'"\'`[](){}<>|#;%&-.=>~:/\\ \nxé🚀'.split('')), maxLength: 30 }),
);

function hostilePlan(texts: string[]): PlanAnalysis {
  const items = texts.map((text, n) =>
    item(n + 1, {
      text,
      kind: (['work', 'gate', 'verify', 'tool', 'human', 'feedback'] as const)[n % 6],
      label: n % 2 ? 'x' : null,
      command: n % 6 === 3 ? text : null,
      deps: n > 0 ? [n] : [],
      done: n % 3 === 0,
      routes: [route(text, n + 2, text), route(`${text}=${text}`, 99, `#${text}`)],
    }),
  );
  return { ir: plan(items), diagnostics: [], waves: [] };
}

describe('graphJson', () => {
  it('has exactly the documented shape and key order', () => {
    const doc = graphJson(everyKind);
    expect(GraphJsonSchema.parse(doc)).toEqual(doc);
    expect(Object.keys(doc)).toEqual(['plan', 'nodes', 'waves', 'diagnostics']);
    expect(Object.keys(doc.nodes[0] ?? {})).toEqual([
      'index', 'id', 'text', 'done', 'kind', 'label', 'deps', 'needs', 'emits', 'routes', 'scenarios', 'writes', 'anchor', 'line',
    ]);
    expect(doc.plan).toBe('.leopold/PLAN.md');
    expect(doc.nodes[0]).toMatchObject({ emits: [{ key: 'built', value: 'true' }], anchor: 'parser', done: true });
    expect(doc.nodes[4]?.needs).toEqual(['built']);
    // Status routes carry no key/op/value; signal routes carry all three, in order.
    expect(doc.nodes[1]?.routes).toEqual([{ when: 'fail', target: 6, kind: 'status' }, { when: 'ok', target: 3, kind: 'status' }]);
    expect(doc.nodes[3]?.routes.map((r) => Object.keys(r))).toEqual([
      ['when', 'target', 'kind', 'key', 'op', 'value'],
      ['when', 'target', 'kind', 'key', 'op', 'value'],
    ]);
    expect(doc.nodes[3]?.routes[0]).toEqual({ when: 'exit!=0', target: 0, kind: 'signal', key: 'exit', op: '!=', value: '0' });
    expect(Object.keys(doc.diagnostics[0] ?? {})).toEqual([
      'code', 'severity', 'message', 'file', 'line', 'column', 'endLine', 'endColumn', 'items', 'hint',
    ]);
    expect(doc.waves).toEqual(everyKind.waves);
  });

  it('renders deterministically as 2-space JSON', () => {
    expect(renderGraphJson(everyKind)).toBe(`${JSON.stringify(graphJson(everyKind), null, 2)}\n`);
    expect(renderGraphJson(everyKind)).toBe(renderGraphJson(everyKind));
  });
});

describe('mermaid', () => {
  it('draws every kind with its own shape, done class, solid after edges and dashed routes', async () => {
    const text = mermaid(everyKind);
    expect(text).toBe(
      [
        'flowchart TD',
        '  i1["✓ 1 · Write the parser"]',
        '  i2{"2 · @gate security · Review auth"}',
        '  i3{{"3 · @verify · Check the build"}}',
        '  i4[["4 · @tool · npm test"]]',
        '  i5(["5 · @human ops · Owner signs off"])',
        '  i6[/"6 · @feedback · Amend the plan"/]',
        '  i4_missing_1>"missing: no target"]',
        '  i4_missing_2>"missing: #35;deploy"]',
        '  i1 --> i2',
        '  i2 -.->|"fail"| i6',
        '  i2 -.->|"ok"| i3',
        '  i2 --> i3',
        '  i3 --> i4',
        '  i4 -.->|"exit!=0"| i4_missing_1',
        '  i4 -.->|"exit=0"| i4_missing_2',
        '  i4 --> i5',
        '  i6 -.->|"retry"| i2',
        '  classDef done fill:#e6f4ea,stroke:#2e7d32,color:#555',
        '  classDef missing fill:#fdecea,stroke:#c62828,stroke-dasharray:4 3,color:#c62828',
        '  class i1 done',
        '  class i4_missing_1,i4_missing_2 missing',
        '',
      ].join('\n'),
    );
    await expect(mermaidParse(text)).resolves.toBeTruthy();
  });

  it('parses for an empty plan', async () => {
    await expect(mermaidParse(mermaid({ ir: plan([]), diagnostics: [], waves: [] }))).resolves.toBeTruthy();
  });

  it('escapes hostile item text, labels and route conditions so Mermaid still parses', async () => {
    const text = mermaid(hostilePlan(HOSTILE));
    await expect(mermaidParse(text)).resolves.toBeTruthy();
    // Nothing the grammar cares about survives raw inside a label.
    for (const line of text.split('\n').slice(1)) {
      for (const quoted of line.match(/"[^"]*"/g) ?? []) expect(quoted.slice(1, -1).replace(/#\d+;/g, '')).not.toMatch(/[[\]{}()|<>`;%&\\]/);
    }
    expect(escapeMermaid('a"b#c;d')).toBe('a#34;b#35;c#59;d');
  });

  it('parses for arbitrary text (property, real Mermaid parser)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(MERMAID_TEXT, { minLength: 1, maxLength: 4 }), async (texts) => {
        await mermaidParse(mermaid(hostilePlan(texts)));
      }),
      { numRuns: 200 },
    );
  });
});

/** A small DOT tokenizer: IDs, quoted strings (decoded), `->` and punctuation. Throws on anything else. */
function dotTokens(text: string): string[] {
  const tokens: string[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i] as string;
    if (/\s/.test(ch)) i++;
    else if (text.startsWith('->', i)) (tokens.push('->'), (i += 2));
    else if ('{}[];,='.includes(ch)) (tokens.push(ch), i++);
    else if (ch === '"') {
      let out = '';
      i++;
      for (;;) {
        const c = text[i];
        if (c === undefined) throw new Error('unterminated string');
        if (c === '\n' || c === '\r') throw new Error('raw line break in a string');
        if (c === '"') break;
        if (c === '\\') {
          const next = text[i + 1];
          if (next !== '"' && next !== '\\') throw new Error(`label escape \\${next} in ${JSON.stringify(text.slice(i - 10, i + 10))}`);
          out += next;
          i += 2;
          continue;
        }
        out += c;
        i++;
      }
      i++;
      tokens.push(`"${out}`);
    } else {
      const m = /^[A-Za-z_0-9.#]+/.exec(text.slice(i));
      if (!m) throw new Error(`unexpected ${JSON.stringify(ch)}`);
      tokens.push(m[0]);
      i += m[0].length;
    }
  }
  return tokens;
}

describe('dot', () => {
  it('draws kinds with shapes, dashed labelled routes and a placeholder for dangling targets', () => {
    const text = dot(everyKind);
    expect(text).toContain('  i2 [label="2 · @gate security · Review auth", shape=diamond];');
    expect(text).toContain('  i3 [label="3 · @verify · Check the build", shape=hexagon];');
    expect(text).toContain('  i4 [label="4 · @tool · npm test", shape=component];');
    expect(text).toContain('  i5 [label="5 · @human ops · Owner signs off", shape=oval];');
    expect(text).toContain('  i6 [label="6 · @feedback · Amend the plan", shape=parallelogram];');
    expect(text).toContain('  i1 [label="✓ 1 · Write the parser", shape=box, style=filled, fillcolor="#e6f4ea", color="#2e7d32"];');
    expect(text).toContain('  i2 -> i6 [style=dashed, label="fail"];');
    expect(text).toContain('  i4_missing_2 [label="missing: #deploy", shape=box, style=dashed, color="#c62828", fontcolor="#c62828"];');
    expect(text).toContain('  i4 -> i4_missing_1 [style=dashed, label="exit!=0", color="#c62828"];');
    expect(text).toContain('  i1 -> i2;');
    expect(text.startsWith('digraph ".leopold/PLAN.md" {\n')).toBe(true);
    expect(text.endsWith('}\n')).toBe(true);
    expect(dotTokens(text).filter((t) => t === '{').length).toBe(1);
  });

  it('escapes quotes and backslashes; line breaks never reach the output', () => {
    expect(dotString('say "hi" \\n \\N')).toBe('"say \\"hi\\" \\\\n \\\\N"');
    expect(dotString('a\nb\r\nc')).toBe('"a b c"');
    const text = dot(hostilePlan(HOSTILE));
    const strings = dotTokens(text).filter((t) => t.startsWith('"')).map((t) => t.slice(1));
    expect(strings.some((s) => s.includes('Say "hi" [now] {ok}'))).toBe(true);
    expect(strings.some((s) => s.includes('\\ backslash'))).toBe(true);
  });

  it('tokenizes for arbitrary text (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary', maxLength: 30 }), { minLength: 1, maxLength: 4 }), (texts) => {
        dotTokens(dot(hostilePlan(texts)));
      }),
      { numRuns: 300 },
    );
  });
});
