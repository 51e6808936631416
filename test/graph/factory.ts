import { CATALOG, type DiagnosticCode } from '../../compiler/diagnostics/catalog.js';
import type { Diagnostic } from '../../compiler/diagnostics/diagnostic.js';
import {
  PlanIRSchema,
  type DepRef,
  type NodeKind,
  type PlanIR,
  type PlanItem,
  type Route,
  type Span,
  type StrayMarker,
} from '../../runtime/plan/schema.js';

/**
 * Hand-built Plan IRs for graph tests, laid out as the parser would see this text:
 *
 *   line 1  # Plan
 *   line 2
 *   line 3  - [ ] (after: 1, #x) @gate label Text {#anchor}
 *   line 4    @on fail -> 2          (one line per route, then emits, needs, writes)
 *   …       next item
 *
 * Columns: the dependency list starts at column 7, its first reference at column 15;
 * marker lines start at column 3; a `@needs` line's first key is at column 10.
 */
export interface ItemSpec {
  text?: string;
  done?: boolean;
  kind?: NodeKind;
  label?: string;
  command?: string;
  anchor?: string;
  /** References as written: numbers, or "#anchor" / "#N" strings. */
  after?: (number | string)[];
  /** `[condition, target]`: target a number, "#anchor" / "#N", or "" for none. */
  on?: [string, number | string][];
  /** `key=value` or `key`. */
  emit?: string[];
  needs?: string[];
  writes?: string[];
  scenarios?: string[];
}

export const FILE = 'PLAN.md';
export const FIRST_ITEM_LINE = 3;

const span = (line: number, column: number, length: number): Span => ({
  line,
  column,
  endLine: line,
  endColumn: column + length,
});

/** A Plan IR from item specs; `legacyItemLines` defaults to the item lines. */
export function plan(
  specs: ItemSpec[],
  extra: { strays?: StrayMarker[]; legacyItemLines?: number[]; file?: string } = {},
): PlanIR {
  const anchors = new Map<string, number>();
  specs.forEach((spec, at) => spec.anchor && !anchors.has(spec.anchor) && anchors.set(spec.anchor, at + 1));
  const resolve = (ref: number | string): number | null => {
    if (typeof ref === 'number') return ref >= 1 && ref <= specs.length ? ref : null;
    const name = ref.replace(/^#/, '');
    if (/^\d+$/.test(name)) return resolve(Number(name));
    return anchors.get(name) ?? null;
  };

  let line = FIRST_ITEM_LINE;
  const items: PlanItem[] = specs.map((spec, at) => {
    const index = at + 1;
    const itemLine = line;
    let column = 7;
    const depRefs: DepRef[] = [];
    if (spec.after) {
      column += '(after: '.length;
      spec.after.forEach((ref, n) => {
        const written = String(ref);
        depRefs.push({ ref: written, index: resolve(ref), span: span(itemLine, column, written.length) });
        column += written.length + (n < spec.after!.length - 1 ? 2 : 0);
      });
      column += 2; // ") "
    }
    const kind = spec.kind ?? 'work';
    let kindSpan: Span | null = null;
    if (kind !== 'work') {
      kindSpan = span(itemLine, column, kind.length + 1);
      column += kind.length + 2;
      if (spec.label) column += spec.label.length + 1;
    }
    const text = spec.text ?? `Item ${index}`;
    const textSpan = span(itemLine, column, text.length);
    const lineEnd = column + text.length + (spec.anchor ? spec.anchor.length + 4 : 0);

    const routes: Route[] = (spec.on ?? []).map(([when, target]) => {
      line += 1;
      const targetText = String(target);
      const signal = /^([A-Za-z_][\w.-]*)\s*(==|!=|=)\s*(.+)$/.exec(when);
      const written = `@on ${when} -> ${targetText}`.trimEnd();
      return {
        when,
        kind: signal ? 'signal' : 'status',
        ...(signal ? { key: signal[1]!, op: signal[2] === '!=' ? '!=' : '=', value: signal[3]! } : {}),
        target: targetText === '' ? 0 : (resolve(target) ?? 0),
        targetText,
        span: span(line, 3, written.length),
      } as Route;
    });
    const emits = (spec.emit ?? []).map((written) => {
      line += 1;
      const [key, value] = written.split('=');
      return { key: key!, value: value ?? 'true', span: span(line, 3, `@emit ${written}`.length) };
    });
    let needColumn = 10;
    if (spec.needs) line += 1;
    const needs = (spec.needs ?? []).map((key) => {
      const need = { key, span: span(line, needColumn, key.length) };
      needColumn += key.length + 2;
      return need;
    });
    if (spec.writes) line += 1;
    line += (spec.scenarios?.length ?? 0) + 1;

    const deps: number[] = [];
    for (const ref of depRefs) {
      if (ref.index !== null && ref.index < index && !deps.includes(ref.index)) deps.push(ref.index);
    }
    return {
      index,
      id: `i${index}`,
      text,
      done: spec.done ?? false,
      kind,
      label: spec.label ?? null,
      command: kind === 'tool' ? (spec.command ?? text) : null,
      anchor: spec.anchor ?? null,
      depRefs,
      deps,
      routes,
      emits,
      needs,
      scenarios: spec.scenarios ?? [],
      writes: spec.writes ?? [],
      line: itemLine,
      span: { line: itemLine, column: 1, endLine: itemLine, endColumn: lineEnd },
      textSpan,
      kindSpan,
      checkOffset: 0,
    };
  });
  return PlanIRSchema.parse({
    file: extra.file ?? FILE,
    items,
    strays: extra.strays ?? [],
    legacyItemLines: extra.legacyItemLines ?? items.map((item) => item.line),
  });
}

/** A stray marker line (`@name rest`) at column 1 of `line`. */
export function stray(reason: 'orphan' | 'unknown', name: string, line: number, item: number | null = null): StrayMarker {
  const text = `@${name} something`;
  return { reason, name, text, span: span(line, 1, text.length), item };
}

/** `count` plain work items, each after the previous one. */
export function chain(count: number, extra: Partial<ItemSpec> = {}): ItemSpec[] {
  return Array.from({ length: count }, (_, at) => ({ ...extra, ...(at > 0 ? { after: [at] } : {}) }));
}

/** The diagnostic a test expects, spelled out field by field; the hint is the catalog's. */
export function diag(
  code: DiagnosticCode,
  severity: 'error' | 'warning',
  [line, column, endLine, endColumn]: [number, number, number, number],
  message: string,
  items: number[] = [],
): Diagnostic {
  return { code, severity, message, file: FILE, line, column, endLine, endColumn, items, hint: CATALOG[code].hint };
}
