import { compile, type CompileOptions } from '../compiler/index.js';

/**
 * The largest item count whose compiled script the host would load (script size grows with
 * items): doubling, then bisection. Shared by the compile and scale benches.
 */
export function largestFitting(plan: (items: number) => string, options: CompileOptions): number {
  const fits = (items: number) => compile(plan(items), options).ok;
  if (!fits(1)) throw new Error('a one-item plan does not fit in 512 KiB: the runtime bundle alone is too big');
  let lo = 1;
  let hi = 2;
  while (fits(hi)) {
    lo = hi;
    hi *= 2;
  }
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (fits(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}
