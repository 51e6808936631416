// Stress sizes. `npm test` runs each stress suite at a size that still exercises what it
// tests (locks contended, parses cut); `npm run test:stress` (LEOPOLD_STRESS=1) runs the
// large sizes that hunt for rare interleavings. The assertions are the same at both sizes.

/** True under `npm run test:stress`. */
export const STRESS = process.env.LEOPOLD_STRESS === '1';

/** `normal` in `npm test`, `stress` under `npm run test:stress`. */
export function sized<T>(normal: T, stress: T): T {
  return STRESS ? stress : normal;
}
