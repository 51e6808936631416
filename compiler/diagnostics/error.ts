/**
 * The one exception type: a user-facing failure (missing file, unreadable input) with a
 * one-line message. The CLI prints `message` and exits 2; it never shows a stack. It lives
 * apart from diagnostic.ts (zod schemas) so the CLI's fast commands can throw and catch it
 * without loading zod.
 */
export class LeopoldError extends Error {
  override readonly name = 'LeopoldError';
  constructor(
    message: string,
    readonly file?: string,
    readonly line?: number,
    readonly column?: number,
  ) {
    super(message);
  }
  /** `file:line:col: message`, or as much of it as is known. */
  render(): string {
    if (!this.file) return this.message;
    const where = [this.file, this.line, this.column].filter((p) => p !== undefined).join(':');
    return `${where}: ${this.message}`;
  }
}
