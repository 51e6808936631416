// The runtime bundles this process knows comply with the host contract together with the
// script template around them: checked in full here (runtime-bundle.ts) or at build time
// (scripts/build.mjs, which writes the hash the CLI compares). No parser is loaded for this:
// `leopold compile` with the built bundle never loads acorn.

const vetted = new Set<string>();

/** True once `runtimeBundle` is known to comply (runtimeBundleProblems found none, or trustRuntimeBundle). */
export function runtimeBundleComplies(runtimeBundle: string): boolean {
  return vetted.has(runtimeBundle);
}

/**
 * Records that `runtimeBundle` complies without checking it: for the CLI, when the bundle's
 * hash is the one scripts/build.mjs wrote after its own check, and for runtimeBundleProblems.
 */
export function trustRuntimeBundle(runtimeBundle: string): void {
  vetted.add(runtimeBundle);
}
