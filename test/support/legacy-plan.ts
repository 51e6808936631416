// A reference model of how the original Leopold (Jonhvmp/leopold, packages/driver) reads a
// PLAN.md, for the differential test in test/fixtures/corpus.test.ts. Written from its
// documented behaviour, not copied: a line-by-line reader (split on "\n" only) where an
// item is a `- [ ]` / `- [x]` line, the item text is that line alone, and marker lines
// below attach to the latest item. Only what the comparison needs is modelled.

/** One item as the original reads it. */
export interface LegacyItem {
  index: number;
  text: string;
  done: boolean;
  deps: number[];
  scenarios: string[];
  kind: string;
  label: string;
  routes: Array<{ when: string; target: number; kind: 'status' | 'signal'; key?: string; op?: '=' | '!='; value?: string }>;
  emits: Array<{ key: string; value: string }>;
  needs: string[];
}

const KIND_WORDS = ['work', 'gate', 'human', 'tool', 'verify', 'feedback'];
// `.` stops at "\r" as the original's patterns do: a CRLF line is never an item there.
const ITEM = /^[ \t]*- \[([ xX])\]\s?(.*)$/;
const DEPENDENCY = /^\((?:after|deps)\s*:\s*([0-9,\s]+)\)\s*/i;
const KIND = /^@(node|work|gate|human|tool|verify|feedback)\b[ \t]*:?[ \t]*/i;
const NODE_KIND = /^([A-Za-z]+)[ \t]*:?[ \t]*/;
const NAMED_LABEL = /^([A-Za-z][A-Za-z0-9_./-]*):(?:[ \t]+|$)[ \t]*/;
const BARE_LABEL = /^([a-z][a-z0-9_./-]*)(?:[ \t]+|$)[ \t]*/;
const ARROW = /^([\s\S]*)(?:->|=>|→)[ \t]*([\s\S]*)$/;
const SIGNAL = /^([^\s=!]+)[ \t]*(!=|==|=)[ \t]*([\s\S]*)$/;

function markerLine(word: string): RegExp {
  return new RegExp(`^[ \\t]*@${word}\\b[ \\t:]*(.*)$`, 'i');
}
const SCENARIO = markerLine('scenario');
const ON = markerLine('on');
const EMIT = markerLine('emit');
const NEEDS = markerLine('needs');

function stripQuotes(value: string): string {
  const quoted = /^"([\s\S]*)"$|^'([\s\S]*)'$/.exec(value);
  return quoted ? (quoted[1] ?? quoted[2] ?? '') : value;
}

/** A leading kind marker: kind, label and what is left, or null when there is none. */
function kindAt(text: string, onItemLine: boolean): { kind: string; label: string; rest: string } | null {
  const marker = KIND.exec(text);
  if (!marker) return null;
  let rest = text.slice(marker[0].length);
  let kind = (marker[1] as string).toLowerCase();
  if (kind === 'node') {
    const named = NODE_KIND.exec(rest);
    const word = (named?.[1] ?? '').toLowerCase();
    if (!named || !KIND_WORDS.includes(word)) return null;
    kind = word;
    rest = rest.slice(named[0].length);
  }
  let label = '';
  const named = NAMED_LABEL.exec(rest);
  if (named) {
    label = named[1] as string;
    rest = rest.slice(named[0].length);
  } else if (kind !== 'tool') {
    const bare = BARE_LABEL.exec(rest);
    if (bare) {
      const after = rest.slice(bare[0].length);
      if (!onItemLine || after.trim() !== '') {
        label = bare[1] as string;
        rest = after;
      }
    }
  }
  return { kind, label, rest: rest.trim() };
}

function itemLine(written: string): { deps: number[]; kind: string; label: string; text: string } {
  let rest = written;
  const deps: number[] = [];
  let kind = 'work';
  let label = '';
  let dependencyRead = false; // one dependency marker per item; a second stays text
  for (;;) {
    const dependency = dependencyRead ? null : DEPENDENCY.exec(rest);
    if (dependency) {
      dependencyRead = true;
      for (const part of (dependency[1] as string).split(',')) {
        const n = parseInt(part.trim(), 10);
        if (Number.isFinite(n) && n >= 1) deps.push(n);
      }
      rest = rest.slice(dependency[0].length);
      continue;
    }
    const marker = kindAt(rest.trimStart(), true);
    if (!marker) break;
    kind = marker.kind;
    if (marker.label) label = marker.label;
    rest = marker.rest;
  }
  return { deps: [...new Set(deps)], kind, label, text: rest.trim() };
}

function route(written: string): LegacyItem['routes'][number] | null {
  const text = written.trim();
  if (!text) return null;
  const split = ARROW.exec(text);
  const when = (split ? (split[1] as string) : text).trim();
  const targetText = split ? (split[2] as string).trim() : '';
  const number = /^#?(\d+)$/.exec(targetText);
  const target = number ? parseInt(number[1] as string, 10) : 0;
  const signal = SIGNAL.exec(when);
  if (!signal) return { when, target, kind: 'status' };
  return {
    when,
    target,
    kind: 'signal',
    key: signal[1] as string,
    op: signal[2] === '!=' ? '!=' : '=',
    value: stripQuotes((signal[3] as string).trim()),
  };
}

function emit(written: string): { key: string; value: string } | null {
  const text = written.trim();
  if (!text) return null;
  const equals = text.indexOf('=');
  if (equals < 0) return { key: text, value: 'true' };
  return { key: text.slice(0, equals).trim(), value: stripQuotes(text.slice(equals + 1).trim()) };
}

/** The items of a plan as the original Leopold's parser yields them. */
export function legacyItems(plan: string): LegacyItem[] {
  const items: LegacyItem[] = [];
  let current: LegacyItem | null = null;
  for (const line of plan.split('\n')) {
    const box = ITEM.exec(line);
    if (box) {
      const index = items.length + 1;
      const read = itemLine(box[2] ?? '');
      current = {
        index,
        text: read.text,
        done: box[1] !== ' ',
        deps: read.deps.filter((d) => d < index),
        scenarios: [],
        kind: read.kind,
        label: read.label,
        routes: [],
        emits: [],
        needs: [],
      };
      items.push(current);
      continue;
    }
    if (!current) continue;
    let m: RegExpExecArray | null;
    if ((m = SCENARIO.exec(line))) {
      const scenario = (m[1] as string).trim();
      if (scenario) current.scenarios.push(scenario);
    } else if ((m = ON.exec(line))) {
      const r = route(m[1] as string);
      if (r) current.routes.push(r);
    } else if ((m = EMIT.exec(line))) {
      const e = emit(m[1] as string);
      if (e) current.emits.push(e);
    } else if ((m = NEEDS.exec(line))) {
      for (const token of (m[1] as string).split(/[,\s]+/)) {
        const key = (token.split('=')[0] as string).trim();
        if (key && !current.needs.includes(key)) current.needs.push(key);
      }
    } else if (line.trim().startsWith('@')) {
      const marker = kindAt(line.trim(), false);
      if (marker) {
        current.kind = marker.kind;
        if (marker.label) current.label = marker.label;
      }
    }
  }
  return items;
}
