// The kinds from kinds.ts, not schema.ts: the parser (and `leopold plan tick`) loads no zod.
import { NODE_KINDS } from '../kinds.js';
import type { Emit, Need, NodeKind, Route, Span } from '../schema.js';
import { referencedIndex, type AnchorTable } from './references.js';
import { toolCommand } from './tool-command.js';

/** A marker line as found in the source: `@word rest`, trimmed. */
export interface WrittenMarker {
  /** The marker word without `@`, lower-cased. */
  name: string;
  /** The trimmed line. */
  text: string;
  span: Span;
}

/** What one marker line means for the item it sits under. */
export type MarkerMeaning =
  | { type: 'route'; route: Route }
  | { type: 'emit'; emit: Emit }
  | { type: 'needs'; needs: Need[] }
  | { type: 'scenario'; scenario: string }
  | { type: 'writes'; globs: string[] }
  | { type: 'kind'; kind: NodeKind; label: string | null; command: string | null; span: Span }
  /** An unknown word, or a known one missing what it needs (`@emit` with no key). */
  | { type: 'unknown' };

const KINDS: ReadonlySet<string> = new Set(NODE_KINDS);

/** True when the trimmed line [start, end) starts with `@` and a letter: a marker line. */
export function isMarkerLine(body: string, start: number, end: number): boolean {
  if (end - start < 2 || body.charCodeAt(start) !== 64) return false; // '@'
  const next = body.charCodeAt(start + 1) | 32; // ASCII lower-case
  return next >= 97 && next <= 122;
}

/**
 * The marker word of a trimmed marker line: everything after `@` up to the first blank or
 * colon. A colon right after the word belongs to the marker (`@scenario: x`, `@on: ok -> 2`,
 * the original Leopold's spelling), so it is not part of the word.
 */
export function markerName(text: string): string {
  const end = text.slice(1).search(/[\s:]/);
  return (end === -1 ? text.slice(1) : text.slice(1, end + 1)).toLowerCase();
}

/** True for a trimmed `@scenario …` line (any case, with or without the colon). */
export function isScenarioLine(text: string): boolean {
  return markerName(text) === 'scenario';
}

/**
 * Whether a line at `indent` wraps the `@scenario` line at `scenarioIndent` above it: it
 * is not blank and is indented deeper. (A scenario is prose and long ones wrap; a line at
 * the marker's own indentation or less is the item's text again.)
 */
export function scenarioContinues(scenarioIndent: number, indent: number, blank: boolean): boolean {
  return !blank && indent > scenarioIndent;
}

/** What follows the marker word (and its optional colon), trimmed. */
function markerRest(marker: WrittenMarker): string {
  const rest = marker.text.slice(1 + marker.name.length);
  return (rest.startsWith(':') ? rest.slice(1) : rest).trim();
}

/** Interprets a marker line under an item; anchors resolve `#name` route targets. */
export function readMarker(marker: WrittenMarker, anchors: AnchorTable): MarkerMeaning {
  const rest = markerRest(marker);
  const { span } = marker;
  switch (marker.name) {
    case 'on':
      // A bare `@on` says nothing to route: like a bare `@emit`, it is reported and ignored.
      return rest ? { type: 'route', route: readRoute(rest, span, anchors) } : { type: 'unknown' };
    case 'emit':
      return readEmit(rest, span);
    case 'needs': {
      // `@needs k=v` needs key k (a need is a key; the original Leopold reads it so too).
      const keys = splitList(rest, /[\s,]+/)
        .map((token) => token.split('=')[0] as string)
        .filter((key) => key.length > 0);
      return keys.length ? { type: 'needs', needs: keys.map((key) => ({ key, span })) } : { type: 'unknown' };
    }
    case 'scenario':
      return rest ? { type: 'scenario', scenario: rest } : { type: 'unknown' };
    case 'writes': {
      // Whitespace only: a comma belongs to globs such as `src/{a,b}/**`.
      const globs = splitList(rest, /\s+/);
      return globs.length ? { type: 'writes', globs } : { type: 'unknown' };
    }
    case 'node': {
      // `@node human ops`, also `@node human: ops` (a colon may close the kind word).
      const [written = '', ...more] = rest.split(/\s+/);
      const kindWord = written.endsWith(':') ? written.slice(0, -1) : written;
      const kind = kindWord.toLowerCase();
      return KINDS.has(kind) ? readKindLine(kind as NodeKind, more.join(' '), span) : { type: 'unknown' };
    }
    default:
      return KINDS.has(marker.name) ? readKindLine(marker.name as NodeKind, rest, span) : { type: 'unknown' };
  }
}

const EXPLICIT_LABEL = /^([A-Za-z0-9_][\w./-]*):(?:\s+|$)/;

/** `@gate security`, `@node human ops`, `@tool deploy: \`make\``: a kind, a label, a tool's command. */
function readKindLine(kind: NodeKind, rest: string, span: Span): MarkerMeaning {
  if (kind === 'tool') {
    // As on the item line: only `name:` labels a tool; the rest is its command.
    const label = EXPLICIT_LABEL.exec(rest);
    const command = label ? rest.slice(label[0].length) : rest;
    return { type: 'kind', kind, label: label ? (label[1] as string) : null, command: command ? toolCommand(command) : null, span };
  }
  const word = rest.split(/\s+/)[0]?.replace(/:$/, '') ?? '';
  return { type: 'kind', kind, label: word || null, command: null, span };
}

const ARROW = /->|=>|→/g;
const SIGNAL = /^([^\s=!]+)\s*(==|!=|=)\s*([\s\S]*)$/;
const ROUTE_TARGET = /^#?\d+$|^#[a-z][a-z0-9-]*$/;

/** `@on <condition> -> <target>`; an unusable target becomes 0 so the validator names it. */
function readRoute(rest: string, span: Span, anchors: AnchorTable): Route {
  // The last arrow splits: a quoted value may contain an arrow, a target never does.
  let arrow: RegExpExecArray | undefined;
  for (const match of rest.matchAll(ARROW)) arrow = match as RegExpExecArray;
  const when = (arrow ? rest.slice(0, arrow.index) : rest).trim();
  const targetText = arrow ? rest.slice(arrow.index + arrow[0].length).trim() : '';
  const target = ROUTE_TARGET.test(targetText) ? (referencedIndex(targetText, anchors) ?? 0) : 0;
  const signal = SIGNAL.exec(when);
  if (!signal) return { when, kind: 'status', target, targetText, span };
  return {
    when,
    kind: 'signal',
    key: signal[1] as string,
    op: signal[2] === '!=' ? '!=' : '=',
    value: unquote((signal[3] as string).trim()),
    target,
    targetText,
    span,
  };
}

/** `@emit key=value` or `@emit key` (value "true"). */
function readEmit(rest: string, span: Span): MarkerMeaning {
  const equals = rest.indexOf('=');
  const key = (equals === -1 ? rest : rest.slice(0, equals)).trim();
  if (!key) return { type: 'unknown' };
  const value = equals === -1 ? 'true' : unquote(rest.slice(equals + 1).trim());
  return { type: 'emit', emit: { key, value, span } };
}

/** Removes one pair of matching quotes: `"x"` and `'x'` become `x`. */
function unquote(value: string): string {
  const first = value[0];
  if (value.length >= 2 && (first === '"' || first === "'") && value.endsWith(first)) return value.slice(1, -1);
  return value;
}

function splitList(text: string, separator: RegExp): string[] {
  return text.split(separator).filter((part) => part.length > 0);
}
