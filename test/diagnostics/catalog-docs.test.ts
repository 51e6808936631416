import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzePlan } from '../../compiler/index.js';
import { parseGuardrails } from '../../compiler/brief/guardrails.js';
import { DIAGNOSTIC_CODES } from '../../compiler/diagnostics/catalog.js';
import { sortDiagnostics } from '../../compiler/diagnostics/diagnostic.js';
import { diagnosticHead, renderText } from '../../compiler/diagnostics/render-text.js';
import { root } from '../support/built-dist.js';

// docs/diagnostics.md and the catalog in step: one section per code, whose example (a
// PLAN.md, and a GUARDRAILS.md where the code needs one) gives exactly the diagnostics the
// page shows (as text, without code frames), among them the section's code, and whose fix gives none at all.
// `UPDATE=1 npx vitest run test/diagnostics/catalog-docs.test.ts` rewrites the shown lines.

const PAGE = join(root, 'docs', 'diagnostics.md');
const UPDATE = process.env.UPDATE === '1';

interface Brief {
  plan: string;
  guardrails: string;
}

interface Section {
  code: string;
  example: Brief;
  /** The ```text block: its contents and where they sit in the page. */
  shown: { text: string; start: number; end: number };
  fix: Brief;
}

const BLOCK = /```(md|text)(?: (PLAN\.md|GUARDRAILS\.md))?\n([\s\S]*?)```/g;
/** What an example without a PLAN.md block runs with (bad-guardrail's is about GUARDRAILS.md). */
const PLAIN_PLAN = '- [ ] Write the parser\n';

function sections(page: string): Section[] {
  const heads = [...page.matchAll(/^## `([a-z-]+)`$/gm)];
  return heads.map((head, n) => {
    const start = head.index;
    const end = heads[n + 1]?.index ?? page.length;
    const body = page.slice(start, end);
    const fixAt = body.indexOf('**Fix**');
    expect(fixAt, `${head[1]} has a **Fix**`).toBeGreaterThan(0);
    const blocks = [...body.matchAll(BLOCK)].map((m) => ({ lang: m[1]!, file: m[2], text: m[3]!, at: m.index, inner: m.index + m[0].indexOf('\n') + 1 }));
    const brief = (list: typeof blocks): Brief => ({
      plan: list.find((b) => b.lang === 'md' && b.file === 'PLAN.md')?.text ?? PLAIN_PLAN,
      guardrails: list.find((b) => b.lang === 'md' && b.file === 'GUARDRAILS.md')?.text ?? '',
    });
    const before = blocks.filter((b) => b.at < fixAt);
    const text = before.filter((b) => b.lang === 'text');
    expect(text, `${head[1]} shows one text block before its fix`).toHaveLength(1);
    return {
      code: head[1]!,
      example: brief(before),
      shown: { text: text[0]!.text, start: start + text[0]!.inner, end: start + text[0]!.inner + text[0]!.text.length },
      fix: brief(blocks.filter((b) => b.at > fixAt)),
    };
  });
}

/** What `leopold graph` reports for a brief of PLAN.md and GUARDRAILS.md. */
function report({ plan, guardrails }: Brief) {
  const settings = parseGuardrails(guardrails, 'GUARDRAILS.md');
  const analysis = analyzePlan(plan, 'PLAN.md', { parallelItems: settings.guardrails.parallelItems === 'on' });
  return sortDiagnostics([...analysis.diagnostics, ...settings.diagnostics]);
}

describe('docs/diagnostics.md', () => {
  const page = readFileSync(PAGE, 'utf8');
  const found = sections(page);

  it('has one section per catalog code, no more', () => {
    expect(found.map((s) => s.code).sort()).toEqual([...DIAGNOSTIC_CODES].sort());
  });

  it('shows exactly what each example reports, and each fix reports nothing', () => {
    let updated = page;
    // From the last section up, so earlier offsets stay valid while rewriting.
    for (const section of [...found].reverse()) {
      const diagnostics = report(section.example);
      expect(diagnostics.map((d) => d.code), section.code).toContain(section.code);
      const lines = renderText(diagnostics);
      if (UPDATE) updated = updated.slice(0, section.shown.start) + lines + updated.slice(section.shown.end);
      else expect(section.shown.text, section.code).toBe(lines);
      expect(report(section.fix).map(diagnosticHead), `${section.code}'s fix`).toEqual([]);
    }
    if (UPDATE && updated !== page) writeFileSync(PAGE, updated);
  });
});
