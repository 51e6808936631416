import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * The stand-in's event loop on a virtual clock. Agents finishing and script timers are
 * events at a virtual time; the loop waits until the realm is idle (a host macrotask turn:
 * every microtask has run), then fires the earliest event (ties in scheduling order). No
 * real time passes between events and nothing depends on it, so runs are deterministic and
 * a `setTimeout(f, 60_000)` costs nothing.
 */
export class VirtualClock {
  now = 0;
  private sequence = 0;
  private readonly events = new Map<number, { due: number; fire: () => void }>();

  /** Schedules `fire` after `delay` virtual ms; returns an id for cancel(). */
  schedule(delay: number, fire: () => void): number {
    const id = ++this.sequence;
    this.events.set(id, { due: this.now + Math.max(0, delay), fire });
    return id;
  }

  cancel(id: number): void {
    this.events.delete(id);
  }

  /** Fires the earliest event; false when none is pending. */
  private fireNext(): boolean {
    let nextId: number | null = null;
    let nextDue = Infinity;
    // Map order is scheduling order, so the first of equal due times wins.
    for (const [id, event] of this.events) {
      if (event.due < nextDue) {
        nextDue = event.due;
        nextId = id;
      }
    }
    if (nextId === null) return false;
    const event = this.events.get(nextId);
    this.events.delete(nextId);
    this.now = nextDue;
    event?.fire();
    return true;
  }

  /**
   * Runs events until `settled()` holds. Resolves 'settled', 'idle' (nothing pending but
   * not settled: the script waits on nothing) or 'timeout' (wall clock past `deadline`).
   */
  async run(settled: () => boolean, deadline: number): Promise<'settled' | 'idle' | 'timeout'> {
    for (;;) {
      await nextTurn();
      if (settled()) return 'settled';
      if (Date.now() > deadline) return 'timeout';
      if (!this.fireNext()) {
        // One more turn: a host promise resolved by the last event may still be settling.
        await nextTurn();
        return settled() ? 'settled' : 'idle';
      }
    }
  }

  clear(): void {
    this.events.clear();
  }
}
