import { compileWriteGlob, writeGlobsOverlap, type WriteGlob } from './glob-overlap.js';

/** One declared scope: the item that declared it and the compiled glob. */
export interface ScopeEntry<T> {
  owner: T;
  glob: WriteGlob;
  /** Filing order, so "first" means first filed. */
  order: number;
}

interface TrieNode<T> {
  children: Map<string, TrieNode<T>>;
  entries: ScopeEntry<T>[];
}

/**
 * The `@writes` globs of one wave, filed in a trie under their literal leading segments.
 * Two globs can only match a common path when one's literal prefix extends the other's, so
 * a lookup visits the node's ancestors and its subtree instead of every glob of the wave:
 * disjoint scopes such as `src/part-1/**` and `src/part-2/**` are never compared.
 */
export class WriteScopeIndex<T> {
  private readonly root: TrieNode<T> = { children: new Map(), entries: [] };
  private filed = 0;

  /** Files every alternative of the glob under its literal prefix. */
  add(owner: T, glob: WriteGlob): void {
    const order = this.filed++;
    for (const alternative of glob.alternatives) {
      let node = this.root;
      for (const name of alternative.literalPrefix) {
        let child = node.children.get(name);
        if (!child) node.children.set(name, (child = { children: new Map(), entries: [] }));
        node = child;
      }
      node.entries.push({ owner, glob, order });
    }
  }

  /**
   * The first filed scope that can match a path the glob matches, or null. Entries of a
   * node are in filing order, so each node is scanned only up to its first hit; the
   * earliest of those hits over the node's ancestors and subtree is the answer.
   */
  firstOverlap(glob: WriteGlob): ScopeEntry<T> | null {
    let best: ScopeEntry<T> | null = null;
    const consider = (node: TrieNode<T>): void => {
      for (const entry of node.entries) {
        if (best !== null && entry.order >= best.order) return;
        if (writeGlobsOverlap(entry.glob, glob)) {
          best = entry;
          return;
        }
      }
    };
    for (const alternative of glob.alternatives) {
      let node: TrieNode<T> | undefined = this.root;
      consider(node);
      for (const name of alternative.literalPrefix) {
        node = node.children.get(name);
        if (!node) break;
        consider(node);
      }
      // Only the node at the full prefix has a subtree of longer prefixes worth searching.
      const below = node ? [...node.children.values()] : [];
      for (let next = below.pop(); next; next = below.pop()) {
        consider(next);
        below.push(...next.children.values());
      }
    }
    return best;
  }
}
