import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { decisionsSince, readDecisions } from '../decisions/trail.js';
import { parseGuardrailSettings } from '../guardrails/index.js';
import { planItems } from '../plan/items-cache.js';
import { readState } from '../state/io.js';
import type { StateReading } from '../state/parse.js';
import { foldEvent, noEventFacts, type EventFacts, type ViewItem, type WatchView } from './model.js';

/** A file's identity and size as last seen: a change in any of them means it is read again. */
function stamp(path: string): string | null {
  try {
    const s = statSync(path);
    return `${s.ino}:${s.size}:${s.mtimeMs}`;
  } catch {
    return null;
  }
}

const CHUNK = 1 << 20;

/**
 * The run's files, read only as far as they changed: each poll stats state.json, PLAN.md,
 * DECISIONS.md and GUARDRAILS.md and reads a file again only when its inode, size or mtime
 * moved; events.jsonl is read from where the last poll stopped (from the start again if it
 * was replaced or shrank). A poll where nothing changed costs five stats.
 */
export class RunFiles {
  private stamps = new Map<string, string | null>();
  private reading: StateReading = { state: null, problem: 'missing' };
  private items: ViewItem[] | null = null;
  private decisionsText = '';
  private maxIterations = 50;
  private facts: EventFacts = noEventFacts();
  private eventsAt = { inode: -1, offset: 0, partial: '', decoder: new StringDecoder('utf8') };
  private view: WatchView | null = null;

  constructor(private readonly leopoldDir: string) {}

  private changed(file: string): boolean {
    const now = stamp(join(this.leopoldDir, file));
    if (this.stamps.has(file) && this.stamps.get(file) === now) return false;
    this.stamps.set(file, now);
    return true;
  }

  /** The view now, and whether anything in it may have changed since the last call. */
  async refresh(): Promise<{ view: WatchView; changed: boolean }> {
    let changed = this.view === null;
    if (this.changed('state.json')) {
      this.reading = readState(this.leopoldDir);
      changed = true;
    }
    if (this.changed('PLAN.md')) {
      this.items = await this.readItems();
      changed = true;
    }
    if (this.changed('GUARDRAILS.md')) {
      this.maxIterations = this.readMaxIterations();
      changed = true;
    }
    if (this.changed('DECISIONS.md')) {
      this.decisionsText = this.readText('DECISIONS.md');
      changed = true;
    }
    if (this.changed('events.jsonl')) {
      this.readNewEvents();
      changed = true;
    }
    if (changed || this.view === null) {
      const started = this.reading.state?.started_at ?? null;
      this.view = {
        state: this.reading.state,
        problem: this.reading.state === null && this.reading.problem !== 'missing' ? this.reading.problem : null,
        items: this.items,
        events: this.facts,
        decisions: this.decisionsText === '' ? [] : decisionsSince(readDecisions(this.decisionsText), started).map((d) => ({ n: d.n, title: d.title })),
        maxIterations: this.maxIterations,
      };
    }
    return { view: this.view, changed };
  }

  private readText(file: string): string {
    try {
      return readFileSync(join(this.leopoldDir, file), 'utf8');
    } catch {
      return '';
    }
  }

  private async readItems(): Promise<ViewItem[] | null> {
    const path = join(this.leopoldDir, 'PLAN.md');
    const text = this.readText('PLAN.md');
    if (text === '') return null;
    try {
      return (await planItems(path, text)).map((item) => ({ index: item.index, text: item.text, done: item.done }));
    } catch {
      return null;
    }
  }

  private readMaxIterations(): number {
    try {
      return parseGuardrailSettings(this.readText('GUARDRAILS.md')).guardrails.maxIterations;
    } catch {
      return 50;
    }
  }

  /** Folds the lines appended since the last read; a line still being written waits for the next. */
  private readNewEvents(): void {
    const path = join(this.leopoldDir, 'events.jsonl');
    let fd: number;
    try {
      fd = openSync(path, 'r');
    } catch {
      this.facts = noEventFacts();
      this.eventsAt = { inode: -1, offset: 0, partial: '', decoder: new StringDecoder('utf8') };
      return;
    }
    try {
      const { ino, size } = statSync(path);
      if (ino !== this.eventsAt.inode || size < this.eventsAt.offset) {
        this.facts = noEventFacts();
        this.eventsAt = { inode: ino, offset: 0, partial: '', decoder: new StringDecoder('utf8') };
      }
      const buffer = Buffer.alloc(CHUNK);
      while (this.eventsAt.offset < size) {
        const n = readSync(fd, buffer, 0, Math.min(CHUNK, size - this.eventsAt.offset), this.eventsAt.offset);
        if (n === 0) break;
        this.eventsAt.offset += n;
        // The decoder holds a character cut by the chunk's end until the next chunk completes it.
        const lines = (this.eventsAt.partial + this.eventsAt.decoder.write(buffer.subarray(0, n))).split('\n');
        this.eventsAt.partial = lines.pop() ?? '';
        for (const line of lines) this.fold(line);
      }
    } finally {
      closeSync(fd);
    }
  }

  private fold(line: string): void {
    if (line.trim() === '') return;
    try {
      const value = JSON.parse(line) as unknown;
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) this.facts = foldEvent(this.facts, value as Record<string, unknown>);
    } catch {
      // a torn line: the writer cuts it before its next append
    }
  }
}
