/** Item anchors of the whole document: name -> index of the first item that declares it. */
export type AnchorTable = ReadonlyMap<string, number>;

/** The `{#name}` anchor syntax: a lowercase letter, then lowercase letters, digits, hyphens. */
const ANCHOR_NAME = /^[a-z][a-z0-9-]*$/;

const INDEX = /^#?0*(\d{1,9})$/;

/**
 * What a reference as written (`3`, `#3`, `#build`) names: an item index, or null when it
 * names nothing. Numbers are kept even past the last item, so callers decide what a
 * missing item means; anything else that does not name an anchor is null.
 */
export function referencedIndex(ref: string, anchors: AnchorTable): number | null {
  const number = INDEX.exec(ref);
  if (number) return Number(number[1]);
  if (ref.startsWith('#') && ANCHOR_NAME.test(ref.slice(1))) return anchors.get(ref.slice(1)) ?? null;
  return null;
}
