import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { findBriefDir } from '../brief/find.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { escapeGithubData, escapeGithubProperty } from '../diagnostics/render-github.js';
import { renderDiagnostics, type DiagnosticFormat } from '../diagnostics/render.js';
import { stableDiagnostic } from '../diagnostics/render-json.js';
import type { SourceLookup } from '../diagnostics/render-text.js';

/**
 * The root GitHub resolves annotation paths against: the git work tree holding `fromDir`
 * (the nearest directory with a `.git` entry, a worktree's `.git` file included), else the
 * directory holding `.leopold/`, else `fallback`.
 */
export function repositoryRoot(fromDir: string, fallback: string): string {
  for (let dir = resolve(fromDir); ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.git'))) return dir;
    if (dirname(dir) === dir) break;
  }
  const brief = findBriefDir(fromDir);
  return brief === null ? fallback : dirname(brief);
}

/**
 * Diagnostics with `file` relative to `root`, forward slashes, for `--format github`:
 * GitHub attaches `file=` to a path from the repository root, whatever directory the
 * command ran in (`../../.leopold/PLAN.md` attaches to nothing). `file` is as shown to
 * the user, relative to `cwd`; a path outside `root` stays as it was.
 */
export function fromRepositoryRoot(list: readonly Diagnostic[], cwd: string, root: string): Diagnostic[] {
  return list.map((d) => {
    const rel = relative(root, resolve(cwd, d.file));
    return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? d : { ...d, file: rel.split(sep).join('/') };
  });
}

/** How loud a note is: an annotation level in `--format github`. */
export type NoteLevel = 'notice' | 'warning' | 'error';

/**
 * Everything a command says on stderr, in the chosen format, so a machine format stays a
 * machine format on both streams: `text` writes as it goes (`leopold: …` lines), `github`
 * writes annotations only (notes as `::notice`/`::warning`/`::error`), `json` gathers it
 * all into one document written by `finish`.
 */
export class StderrReport {
  private readonly notes: Array<{ level: NoteLevel; text: string }> = [];
  private readonly diagnostics: Diagnostic[] = [];
  private readonly extra: Record<string, unknown> = {};

  constructor(
    readonly format: DiagnosticFormat,
    readonly sources: SourceLookup,
    /** Maps diagnostics for `github` (paths from the repository root). */
    private readonly forGithub: (list: readonly Diagnostic[]) => Diagnostic[] = (list) => [...list],
  ) {}

  /** Diagnostics, rendered now (text, github) or kept for the document (json). */
  diagnosticsOut(list: readonly Diagnostic[]): void {
    if (list.length === 0) return;
    if (this.format === 'json') this.diagnostics.push(...list);
    else process.stderr.write(renderDiagnostics(this.format === 'github' ? this.forGithub(list) : list, this.format, this.sources));
  }

  /** One sentence for the user: `leopold: <text>` in text, an annotation in github, a note in json. */
  note(text: string, level: NoteLevel = 'notice'): void {
    if (this.format === 'json') this.notes.push({ level, text });
    else if (this.format === 'github') process.stderr.write(`::${level} title=${escapeGithubProperty('leopold')}::${escapeGithubData(text)}\n`);
    else process.stderr.write(level === 'warning' ? `leopold: warning: ${text}\n` : `leopold: ${text}\n`);
  }

  /** A multi-line text block (the repair report): as is in text, one annotation in github, a note in json. */
  block(text: string, level: NoteLevel = 'error'): void {
    if (this.format === 'text') process.stderr.write(text);
    else this.note(text.trimEnd(), level);
  }

  /** Fields only the json document carries (the repair verdicts). */
  set(key: string, value: unknown): void {
    this.extra[key] = value;
  }

  /** Ends the report: in json, the one document `{ ok, diagnostics, notes, … }`. */
  finish(ok: boolean): void {
    if (this.format !== 'json') return;
    const doc = { ok, ...this.extra, diagnostics: this.diagnostics.map(stableDiagnostic), notes: this.notes };
    process.stderr.write(`${JSON.stringify(doc, null, 2)}\n`);
  }
}
