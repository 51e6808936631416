import fc from 'fast-check';
import { EditMap } from 'micromark-util-edit-map';
import type { Event } from 'micromark-util-types';
import { describe, expect, it } from 'vitest';

// vendor/micromark-util-edit-map is micromark's EditMap with a consume() that rebuilds the
// event list from its first edit on, not from its start (docs/decisions/vendored-edit-map.md).
// Same edits in, same list out: checked against the registry version's algorithm, copied
// below as it is in micromark-util-edit-map 1.0.0, on random lists and random edits
// (several at one index, overlapping removals, addBefore, edits past the end).

type Change = [number, number, Event[]];

function registryConsume(map: Change[], events: Event[]): void {
  map.sort((a, b) => a[0] - b[0]);
  if (map.length === 0) return;
  let index = map.length;
  const vecs: Event[][] = [];
  while (index > 0) {
    index -= 1;
    const change = map[index] as Change;
    vecs.push(events.slice(change[0] + change[1]), change[2]);
    events.length = change[0];
  }
  vecs.push(events.slice());
  events.length = 0;
  let slice = vecs.pop();
  while (slice) {
    for (const element of slice) events.push(element);
    slice = vecs.pop();
  }
}

interface Edit {
  at: number;
  remove: number;
  add: number[];
  before: boolean;
}

const asEvent = (n: number) => n as unknown as Event;
const edits = fc.record({
  length: fc.integer({ min: 0, max: 40 }),
  edits: fc.array(
    fc.record({ at: fc.nat(44), remove: fc.nat(6), add: fc.array(fc.integer({ min: 1000, max: 1100 }), { maxLength: 4 }), before: fc.boolean() }),
    { maxLength: 6 },
  ),
});

/** The list after `edits`, through the vendored EditMap or the registry algorithm. */
function apply(length: number, list: readonly Edit[], consume: (map: EditMap, events: Event[]) => void): unknown[] {
  const events = Array.from({ length }, (_, i) => asEvent(i));
  const map = new EditMap();
  for (const edit of list) {
    // Within the list or at its end, as micromark's edits always are.
    const at = Math.min(edit.at, length);
    if (edit.before) map.addBefore(at, edit.remove, edit.add.map(asEvent));
    else map.add(at, edit.remove, edit.add.map(asEvent));
  }
  consume(map, events);
  // Holes and undefined read the same: spread both to undefined.
  return [...events];
}

describe('the vendored EditMap', () => {
  it('gives the same list as the registry version for any edits', () => {
    fc.assert(
      fc.property(edits, ({ length, edits: list }) => {
        const vendored = apply(length, list, (map, events) => map.consume(events));
        const registry = apply(length, list, (map, events) => registryConsume((map as unknown as { map: Change[] }).map, events));
        expect(vendored).toEqual(registry);
      }),
      { numRuns: 3000 },
    );
  });

  it('leaves the map empty, ready for the next batch', () => {
    const map = new EditMap();
    const events = [1, 2, 3].map(asEvent);
    map.add(1, 1, [asEvent(9)]);
    map.consume(events);
    expect(events).toEqual([1, 9, 3]);
    map.consume(events);
    expect(events).toEqual([1, 9, 3]);
  });
});
