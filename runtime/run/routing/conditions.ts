import type { Route } from '../../plan/schema.js';
import { isFailure, isSuccess } from './facts.js';

/**
 * Does a route's condition hold for the source node's outcome?
 * Status test: `ok`/`pass` match success, `fail` matches failure, any other word matches a
 * reported status verbatim. Signal test `key=value` / `key!=value` reads the source's
 * signals; an absent key makes both `=` and `!=` false, so nothing is ever routed on a
 * signal that was never sent.
 */
export function routeMatches(route: Route, status: string, signals: Readonly<Record<string, string>>): boolean {
  if (route.kind === 'status') {
    const word = route.when.trim();
    const lower = word.toLowerCase();
    if (lower === 'ok' || lower === 'pass') return isSuccess(status);
    if (lower === 'fail') return isFailure(status);
    return status === word;
  }
  if (route.key === undefined || !Object.hasOwn(signals, route.key)) return false;
  const actual = signals[route.key];
  const expected = route.value ?? '';
  return route.op === '!=' ? actual !== expected : actual === expected;
}
