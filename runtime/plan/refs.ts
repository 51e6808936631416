import type { PlanIR } from './schema.js';

/**
 * The item index a reference names: `3`, `#3` or `#anchor` (wherever an index is accepted,
 * an anchor is too). `extra` counts items appended after the plan's last one (an amendment
 * batch). Null when it names nothing.
 */
export function resolveRef(ir: PlanIR, ref: string, extra = 0): number | null {
  const number = /^#?(\d+)$/.exec(ref.trim());
  if (number) {
    const index = Number(number[1]);
    return index >= 1 && index <= ir.items.length + extra ? index : null;
  }
  const anchor = /^#([a-z][a-z0-9-]*)$/.exec(ref.trim());
  if (anchor) return ir.items.find((item) => item.anchor === anchor[1])?.index ?? null;
  return null;
}
