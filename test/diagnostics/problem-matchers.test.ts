import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyzePlan } from '../../compiler/index.js';
import { renderText } from '../../compiler/diagnostics/render-text.js';
import { root } from '../support/built-dist.js';

// The text diagnostics as the tools that read compiler output see them, with each tool's
// own regular expression, copied exactly (docs/decisions/diagnostic-shape.md names where
// each comes from). A problem matcher reads one line at a time, so every other line of the
// output (code frames, hints, the tally) goes through the same regexes and must not match.

/** A problem-matcher pattern: the regex and which group holds what (GitHub's documented format). */
interface Pattern {
  regexp: string;
  file: number;
  line: number;
  column: number;
  severity: number;
  message: number;
  code?: number;
}

// VS Code's `$gcc` (the C/C++ extension's problemPatterns; VS Code's own built-ins have no
// pattern with a severity for `file:line:col:` lines).
const VSCODE_GCC: Pattern = { regexp: '^(.*?):(\\d+):(\\d*):?\\s+(?:fatal\\s+)?(warning|error):\\s+(.*)$', file: 1, line: 2, column: 3, severity: 4, message: 5 };
// The gcc problem matcher for GitHub Actions most workflows register (`::add-matcher::`), in
// GitHub's documented problem-matcher format.
const GITHUB_GCC: Pattern = { regexp: '^(.*):(\\d+):(\\d+):\\s+(?:fatal\\s+)?(warning|error):\\s+(.*)$', file: 1, line: 2, column: 3, severity: 4, message: 5 };

/** Leopold's own matcher, exactly as docs/cli.md publishes it (it also captures the code). */
function documentedMatcher(): { owner: string; pattern: Pattern[] } {
  const cli = readFileSync(`${root}/docs/cli.md`, 'utf8');
  const block = /```json\n(\{\s*"problemMatcher"[\s\S]*?)```/.exec(cli);
  if (!block) throw new Error('docs/cli.md has no problemMatcher block');
  const matcher = (JSON.parse(block[1]!) as { problemMatcher: { owner: string; pattern: Pattern[] }[] }).problemMatcher;
  expect(matcher).toHaveLength(1);
  return matcher[0]!;
}

/** What a matcher reads from the output: one problem per matching line. */
function read(pattern: Pattern, output: string) {
  const regex = new RegExp(pattern.regexp);
  return output.split('\n').flatMap((line) => {
    const m = regex.exec(line);
    if (!m) return [];
    const message = m[pattern.message]!;
    // Without a code group, the code is the message's last bracketed word.
    const code = pattern.code !== undefined ? m[pattern.code] : /\[([^\]]+)\]$/.exec(message)?.[1];
    return [{ file: m[pattern.file], line: Number(m[pattern.line]), column: Number(m[pattern.column]), severity: m[pattern.severity], message, code }];
  });
}

// A broken plan with errors and warnings, a message with colons, brackets and numbers in it.
const PLAN = [
  '# Plan',
  '',
  '- [ ] Build: the parser (see [notes]) {#build}',
  '  @on ok -> 9',
  '  @frobnicate now: see 3:4',
  '- [ ] (after: #buld) Ship it',
  '',
].join('\n');
const FILE = 'plans/PLAN.md';

describe('text diagnostics through the problem matchers', () => {
  const { diagnostics } = analyzePlan(PLAN, FILE);
  const output = `${renderText(diagnostics, new Map([[FILE, PLAN]]))}2 errors, 1 warning\n`;
  const expected = diagnostics.map((d) => ({ file: d.file, line: d.line, column: d.column, severity: d.severity, code: d.code }));

  it('the plan has errors and warnings to read', () => {
    expect(new Set(diagnostics.map((d) => d.severity))).toEqual(new Set(['error', 'warning']));
    expect(diagnostics.length).toBeGreaterThanOrEqual(3);
  });

  for (const [name, pattern] of [
    ['VS Code $gcc', VSCODE_GCC],
    ['GitHub gcc matcher', GITHUB_GCC],
  ] as const) {
    it(`${name} reads file, line, column, severity, message and code of every diagnostic, and nothing else`, () => {
      const problems = read(pattern, output);
      expect(problems.map(({ message: _, ...p }) => p)).toEqual(expected);
      // The message is the diagnostic's own, code suffix and all.
      expect(problems.map((p) => p.message)).toEqual(diagnostics.map((d) => `${d.message} [${d.code}]`));
    });
  }

  it("Leopold's documented matcher (docs/cli.md) reads the code as a group of its own", () => {
    const matcher = documentedMatcher();
    expect(matcher.owner).toBe('leopold');
    const problems = read(matcher.pattern[0]!, output);
    expect(problems.map(({ message: _, ...p }) => p)).toEqual(expected);
    expect(problems.map((p) => p.message)).toEqual(diagnostics.map((d) => d.message));
  });
});
