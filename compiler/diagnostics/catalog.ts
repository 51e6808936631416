/**
 * The catalog of diagnostic codes. Codes are stable kebab-case strings: never reuse or
 * rename one. Each entry fixes the severity and the advice shown as `hint`.
 */
export const CATALOG = {
  'empty-plan': { severity: 'error', hint: 'Add at least one task item, e.g. "- [ ] Write the parser".' },
  cycle: { severity: 'error', hint: 'Route forward only: write each round of a review and rework loop as an item of its own (docs/plan-language.md, "Loops: review and rework").' },
  'dangling-edge': { severity: 'error', hint: 'Point the route at an existing item index (1-based) or #anchor.' },
  'unmet-need': { severity: 'error', hint: 'Add an "@emit <key>" line to the item that produces this signal.' },
  unreachable: { severity: 'error', hint: 'Give the item a dependency or a route that can dispatch it.' },
  'duplicate-anchor': { severity: 'error', hint: 'Anchors name one item each; rename one of them.' },
  'empty-tool-command': { severity: 'error', hint: 'Write the command after @tool, e.g. "@tool `npm test`".' },
  'unroutable-signal': { severity: 'warning', hint: 'Add an "@emit" for this key, or route on ok / fail.' },
  'dropped-dependency': { severity: 'warning', hint: 'A dependency must name an earlier item.' },
  'orphan-marker': { severity: 'warning', hint: 'Marker lines attach to the nearest item above; move it below an item.' },
  'unknown-marker': { severity: 'warning', hint: 'Known markers: @on @emit @needs @scenario @writes @work @gate @verify @tool @human @feedback @node.' },
  'numbering-changed': { severity: 'warning', hint: 'Check every (after: N) and @on target; or use {#anchor} names, which never move.' },
  'write-scope-overlap': { severity: 'warning', hint: 'Give items of one wave disjoint @writes, order one after the other with (after: N), or set parallel_items: off.' },
  'did-you-mean': { severity: 'warning', hint: 'Correct the spelling; as written it does not do what it looks like.' },
  'not-a-checkbox': { severity: 'warning', hint: 'Only [ ], [x] and [X] make an item; use an {#anchor} to name items that never move.' },
  'nesting-too-deep': { severity: 'error', hint: 'Nest at most 32 levels: each ">" and each list marker opens one, and the indentation before a line\'s first list marker keeps at most one open per two columns (a tab counts four).' },
  'bad-guardrail': { severity: 'warning', hint: 'Until it is fixed the default applies, and leopold run start refuses the file.' },
  'unknown-guardrail': { severity: 'warning', hint: 'Until it is fixed the line is ignored, and leopold run start refuses the file.' },
  'unclosed-comment': { severity: 'warning', hint: 'Close the comment with -->; until then leopold run start refuses the file.' },
} as const;

/** A diagnostic code from the catalog. */
export type DiagnosticCode = keyof typeof CATALOG;

/** Every code, sorted, for documentation and exhaustiveness tests. */
export const DIAGNOSTIC_CODES = Object.keys(CATALOG).sort() as DiagnosticCode[];
