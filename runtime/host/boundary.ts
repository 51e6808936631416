import { MAX_BOUNDARY_ARRAY } from './limits.js';

/**
 * The path of the first array holding more than 4,096 elements (docs/host-contract.md), or
 * null. `value` is JSON data, so the walk meets no cycles.
 */
export function oversizedArrayPath(value: unknown, path: string): string | null {
  if (Array.isArray(value)) {
    if (value.length > MAX_BOUNDARY_ARRAY) return path;
    for (const [index, element] of value.entries()) {
      const found = oversizedArrayPath(element, `${path}[${index}]`);
      if (found) return found;
    }
    return null;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, element] of Object.entries(value)) {
      const found = oversizedArrayPath(element, `${path}.${key}`);
      if (found) return found;
    }
  }
  return null;
}

/** The error for an oversized array at `path`. */
export function oversizedArrayMessage(path: string, length: number): string {
  return `${path} holds ${length} elements; arrays crossing the host boundary hold at most ${MAX_BOUNDARY_ARRAY}`;
}
