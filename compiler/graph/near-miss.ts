import { NODE_KINDS, type PlanItem, type Route, type StrayMarker } from '../../runtime/plan/schema.js';
import { emittedKeysOf, statusWordsOf } from '../../runtime/plan/kind-facts.js';
import { editDistance, slipEdits } from '../../runtime/spelling/edit-distance.js';

export { editDistance };

/**
 * Near misses: words one slip away from a word the plan language knows. Shared by the
 * `did-you-mean` check and the checks that would otherwise report the same line, so one
 * mistake gets one diagnostic.
 *
 * Distance and the size of a slip come from runtime/spelling (GUARDRAILS.md's keys use them too).
 */

/** Marker words of marker lines (kinds included: `@gate security` is a kind line). */
export const MARKER_WORDS: readonly string[] = ['on', 'emit', 'needs', 'scenario', 'writes', 'node', ...NODE_KINDS];

/** What a misspelt word most likely meant. */
export interface NearMiss {
  /** The word as written. */
  written: string;
  /** The known word it is close to. */
  meant: string;
}

/**
 * The known word closest to `word`, when it is a likely slip: at most one edit for words
 * of up to four letters, two for longer ones; with `prefixes`, also a known word that the
 * written one starts with or that starts with it (`failed`, `exitcode` for `fail`, `exit`).
 * Words under three letters are never guessed at. For the plan language's own short lists
 * (kinds, markers, an item's status words and keys); a list that grows with the plan goes
 * through {@link NearMisses}.
 */
export function closestWord(word: string, known: readonly string[], prefixes = false): string | undefined {
  const written = word.toLowerCase();
  if (written.length < 3 || known.some((k) => k.toLowerCase() === written)) return undefined;
  let best: { word: string; distance: number } | undefined;
  for (const candidate of known) {
    const lower = candidate.toLowerCase();
    const allowed = slipEdits(written, lower);
    const prefix =
      prefixes && Math.min(written.length, lower.length) >= 3 && (written.startsWith(lower) || lower.startsWith(written));
    // Lengths further apart than the edits allowed cannot be a slip: skip the matrix.
    if (!prefix && Math.abs(written.length - lower.length) > allowed) continue;
    const distance = editDistance(written, lower);
    if (distance > allowed && !prefix) continue;
    if (!best || distance < best.distance) best = { word: candidate, distance };
  }
  return best?.word;
}

/**
 * Words longer than this, once lowercased, are never guessed at against a plan's own words
 * (pasted, not typed). Lowercasing can lengthen a word (`İ` becomes `i̇`); the bound is on
 * the lowercased form, the one every distance here is measured on.
 */
export const LONGEST_GUESS = 32;

/** Every string `word` becomes with up to two characters deleted, itself included. */
function deletions(word: string): Set<string> {
  const out = new Set([word]);
  for (let i = 0; i < word.length; i++) {
    const once = word.slice(0, i) + word.slice(i + 1);
    out.add(once);
    for (let j = i; j < once.length; j++) out.add(once.slice(0, j) + once.slice(j + 1));
  }
  return out;
}

/**
 * {@link closestWord} (without prefixes) over a list that grows with the plan: its anchors
 * or the keys it emits. A linear scan per miss makes a plan with many misses quadratic, so
 * the known words are indexed once by their deletion neighbourhoods: two words within two
 * edits (a swap included) share a string each reaches by at most two deletions, so a miss
 * only meets the candidates it shares one with, then is measured as closestWord would.
 * Same answer as closestWord, ties included (the earlier known word wins), for every word
 * within LONGEST_GUESS; the index is built on the first miss, and each written word is
 * looked up once.
 */
export class NearMisses {
  private readonly words: string[] = [];
  private readonly lower = new Map<string, number>();
  private index: Map<string, number[]> | undefined;
  private readonly answers = new Map<string, string | undefined>();

  constructor(known: Iterable<string>) {
    for (const word of known) {
      const lower = word.toLowerCase();
      if (this.lower.has(lower)) continue;
      this.lower.set(lower, this.words.length);
      this.words.push(word);
    }
  }

  /** Whether `word` is known (case aside). */
  has(word: string): boolean {
    return this.lower.has(word.toLowerCase());
  }

  /** The known word `word` is, as the plan spells it (case aside), if any. */
  spelled(word: string): string | undefined {
    const at = this.lower.get(word.toLowerCase());
    return at === undefined ? undefined : this.words[at];
  }

  /** The known word `word` is most likely a slip for, if any. */
  closest(word: string): string | undefined {
    const written = word.toLowerCase();
    if (written.length < 3 || written.length > LONGEST_GUESS || this.lower.has(written)) return undefined;
    if (this.answers.has(written)) return this.answers.get(written);
    const index = (this.index ??= this.build());
    let best: { at: number; distance: number } | undefined;
    const seen = new Set<number>();
    for (const variant of deletions(written)) {
      for (const at of index.get(variant) ?? []) {
        if (seen.has(at)) continue;
        seen.add(at);
        const lower = (this.words[at] as string).toLowerCase();
        const distance = editDistance(written, lower);
        if (distance > slipEdits(written, lower)) continue;
        if (!best || distance < best.distance || (distance === best.distance && at < best.at)) best = { at, distance };
      }
    }
    const meant = best === undefined ? undefined : this.words[best.at];
    this.answers.set(written, meant);
    return meant;
  }

  private build(): Map<string, number[]> {
    const index = new Map<string, number[]>();
    this.words.forEach((word, at) => {
      if (word.length > LONGEST_GUESS + 2) return; // beyond two edits of any word guessed at
      for (const variant of deletions(word.toLowerCase())) {
        const list = index.get(variant);
        if (list) list.push(at);
        else index.set(variant, [at]);
      }
    });
    return index;
  }
}

/** `@write`, `@gaet`, `@node hmuan`: a marker line whose word is a near miss. */
export function markerLineNearMiss(stray: StrayMarker): NearMiss | undefined {
  if (stray.reason !== 'unknown') return undefined;
  if (stray.name === 'node') {
    const kind = /^@node(?:\s*:)?\s+([^\s:]+)/i.exec(stray.text)?.[1];
    const meant = kind === undefined ? undefined : closestWord(kind, NODE_KINDS);
    return kind !== undefined && meant !== undefined ? { written: kind, meant } : undefined;
  }
  const meant = closestWord(stray.name, MARKER_WORDS);
  return meant === undefined ? undefined : { written: stray.name, meant };
}

/** What an item line that starts with an unread `@word` says about its kind. */
export type ItemLineKind =
  /** `viaNode`: written as `@node <kind>` rather than `@<kind>`. */
  | { type: 'near-miss'; written: string; meant: string; length: number; viaNode: boolean }
  | { type: 'unknown-node-kind'; kind: string; length: number };

const ITEM_AT_WORD = /^@([A-Za-z][A-Za-z0-9_-]*)/;
const ITEM_NODE_KIND = /^@node(?:[ \t]*:)?\s+([^\s:]+)/i;

/**
 * `- [ ] @gaet Review` and `- [ ] @node bogus Decide` stay prose (the kind marker was not
 * read), which silently makes them work items: say which. `length` is how much of the
 * text the finding covers.
 */
export function itemLineKind(item: PlanItem): ItemLineKind | undefined {
  const node = ITEM_NODE_KIND.exec(item.text);
  if (node) {
    const kind = node[1] as string;
    const meant = closestWord(kind, NODE_KINDS);
    if (meant !== undefined) return { type: 'near-miss', written: kind, meant, length: node[0].length, viaNode: true };
    return { type: 'unknown-node-kind', kind, length: node[0].length };
  }
  const word = ITEM_AT_WORD.exec(item.text);
  if (!word) return undefined;
  const meant = closestWord(word[1] as string, NODE_KINDS);
  return meant === undefined
    ? undefined
    : { type: 'near-miss', written: word[1] as string, meant, length: word[0].length, viaNode: false };
}

/**
 * `@on failed -> 3` (a status word the item never produces, close to one it does) or
 * `@on exitcode!=0 -> 3` (a key close to one it emits): a route that can never be taken.
 */
export function routeNearMiss(item: PlanItem, route: Route): NearMiss | undefined {
  if (route.kind === 'status') {
    const word = route.when.trim();
    if (statusWordsOf(item).includes(word.toLowerCase()) || emittedKeysOf(item).includes(word)) return undefined;
    const meant = closestWord(word, statusWordsOf(item), true);
    return meant === undefined ? undefined : { written: word, meant };
  }
  const key = route.key ?? route.when;
  const keys = emittedKeysOf(item);
  if (keys.includes(key)) return undefined;
  const meant = closestWord(key, keys, true);
  return meant === undefined ? undefined : { written: key, meant };
}

/**
 * The anchor a reference that names no item most likely meant: `#fxi` or `fxi` where the
 * plan has `{#fix}`, `#Fix` (anchors are lowercase) or a bare `fix` (no `#`). Numbers are
 * never guessed at: the message already says which numbers exist.
 */
export function referenceNearMiss(ref: string, anchors: NearMisses): NearMiss | undefined {
  const written = ref.startsWith('#') ? ref.slice(1) : ref;
  if (!/^[A-Za-z][\w-]*$/.test(written)) return undefined;
  const meant = anchors.spelled(written) ?? anchors.closest(written);
  return meant === undefined || meant === ref.slice(1) ? undefined : { written, meant };
}

/** The two dependency marker words and what a slip of them is read as. */
const DEPENDENCY_WORDS = ['after', 'deps'] as const;

/** A token that can only be a reference: `3`, `#3`, `#build`. */
const REFERENCE_TOKEN = /^#?\d{1,9}$|^#[a-z][a-z0-9-]*$/;

/**
 * A dependency marker the parser did not read, found at the start of the item text (where
 * the parser stopped reading markers): `(afer: #x)`, `(after #x)`, `(deps 1 2)`,
 * `(depends on: 3)`, or `(after: #x` never closed. `replacement` is the marker as it
 * should read. Prose is left alone: the parenthesis must hold only references (numbers,
 * `#N`, `#anchor`, or the name of one of the plan's anchors), so `(after lunch) Call Sam`
 * or `(after 5pm)` stays text. See docs/plan-language.md, "Typos and prose".
 */
export interface DependencySlip {
  /** How much of the item text it covers. */
  length: number;
  /** What is wrong, for the message. */
  problem: string;
  replacement: string;
}

// `(word[ on][:] refs)`; the closing parenthesis is optional so an unclosed marker is found.
const LEADING_PAREN = /^\(\s*([A-Za-z]+(?:[ \t]+on)?)([ \t]*:)?([^()]*)(\))?/;

export function dependencySlip(item: PlanItem, anchors: NearMisses): DependencySlip | undefined {
  const match = LEADING_PAREN.exec(item.text);
  if (!match) return undefined;
  const [whole, wordWritten, colon, contents, close] = match as unknown as [string, string, string | undefined, string, string | undefined];
  const word = wordWritten.toLowerCase();
  const exact = (DEPENDENCY_WORDS as readonly string[]).includes(word);
  const meant = exact ? word : word === 'depends' || word === 'depends on' ? 'deps' : closestWord(word, DEPENDENCY_WORDS);
  if (meant === undefined) return undefined;
  if (close === undefined) {
    // Only the real keyword and its colon say "marker" clearly enough without the `)`.
    if (!exact || colon === undefined) return undefined;
    const refs = leadingReferences(contents, anchors);
    if (refs.length === 0) return undefined;
    return { length: whole.length, problem: `its "(${wordWritten}:" is never closed with ")"`, replacement: `(${word}: ${refs.join(', ')})` };
  }
  const tokens = contents.split(/[\s,]+/).filter((t) => t !== '');
  if (tokens.length === 0 || !tokens.every((t) => isReference(t, anchors))) return undefined;
  const replacement = `(${meant}: ${tokens.map((t) => (REFERENCE_TOKEN.test(t) ? t : `#${anchors.spelled(t) ?? t}`)).join(', ')})`;
  const problem = exact ? `"(${wordWritten} …)" has no colon after "${wordWritten}"` : `"(${wordWritten}${colon ?? ''} …)" is not a dependency marker`;
  return { length: whole.length, problem, replacement };
}

/** A dependency marker anywhere after the start of the text, where it is never read: `Write docs (after: #parser)`. */
export function misplacedDependency(item: PlanItem, anchors: NearMisses): string | undefined {
  for (const match of item.text.matchAll(/\((after|deps)[ \t]*:([^()]*)\)/gi)) {
    // At the very start it would have been read (a leading one is never left in the text).
    if (match.index === 0) continue;
    const tokens = (match[2] as string).split(/[\s,]+/).filter((t) => t !== '');
    if (tokens.length > 0 && tokens.every((t) => isReference(t, anchors))) return match[0];
  }
  return undefined;
}

function isReference(token: string, anchors: NearMisses): boolean {
  return REFERENCE_TOKEN.test(token) || anchors.has(token.replace(/^#/, ''));
}

/** The references an unclosed marker starts with (up to the first word that is not one). */
function leadingReferences(contents: string, anchors: NearMisses): string[] {
  const refs: string[] = [];
  for (const token of contents.split(/[\s,]+/).filter((t) => t !== '')) {
    if (!isReference(token, anchors)) break;
    refs.push(token);
  }
  return refs;
}

/** Marker-line words: written on the item line they are text, so the marker does nothing. */
const MARKER_LINE_WORDS: readonly string[] = ['on', 'emit', 'needs', 'scenario', 'writes'];

// `@nede human`: a slip of `@node` followed by a kind.
const NODE_SLIP = /^@([A-Za-z]{3,5})[ \t]*:?[ \t]+(work|gate|verify|tool|human|feedback)(?![A-Za-z0-9_-])/i;

/**
 * An item text that starts with a marker-line word (`- [ ] @needs built Deploy`), or with
 * a slip of `@node` before a kind (`@nede human Ask`): on the item line only dependencies
 * and kinds are read, so the rest is text and the marker does nothing. Other `@words` at
 * the start of the text may be someone's handle (`@emily review the copy`) and are left
 * alone; kind slips (`@gaet`) are itemLineKind's.
 */
export function itemLineMarkerWord(item: PlanItem): { written: string; meant: string; length: number; markerLine: boolean } | undefined {
  const word = ITEM_AT_WORD.exec(item.text);
  if (!word) return undefined;
  const written = word[1] as string;
  if (MARKER_LINE_WORDS.includes(written.toLowerCase())) return { written, meant: written.toLowerCase(), length: word[0].length, markerLine: true };
  const slip = NODE_SLIP.exec(item.text);
  if (!slip || slip[1]!.toLowerCase() === 'node' || editDistance(slip[1]!.toLowerCase(), 'node') > 1) return undefined;
  return { written: slip[1]!, meant: `node ${slip[2]!.toLowerCase()}`, length: slip[0].length, markerLine: false };
}

/**
 * The hint for a reference that names no item, when it is a near miss of an anchor
 * (`Did you mean "#fix"? Item 3 is {#fix}.`); undefined leaves the catalog's hint.
 */
export function meantAnchor(ctx: { anchors: NearMisses; anchorItems: ReadonlyMap<string, number> }, ref: string): string | undefined {
  const miss = referenceNearMiss(ref, ctx.anchors);
  if (!miss) return undefined;
  const owner = ctx.anchorItems.get(miss.meant);
  return `Did you mean "#${miss.meant}"?${owner === undefined ? '' : ` Item ${owner} is {#${miss.meant}}.`}`;
}
