import { z } from 'zod';
import { NODE_KINDS } from './kinds.js';

/**
 * The Plan IR: what the parser knows about PLAN.md, with source positions. It lives in
 * runtime/ because both engines (the workflow script and the Stop hook) route over it;
 * compiler/ imports it from here (docs/architecture.md: compiler may import runtime, never the reverse).
 */

/** A 1-based source range; `endColumn` is one past the last character (unist style). */
export const SpanSchema = z.object({
  line: z.number().int().min(1),
  column: z.number().int().min(1),
  endLine: z.number().int().min(1),
  endColumn: z.number().int().min(1),
});
export type Span = z.infer<typeof SpanSchema>;

export { NODE_KINDS } from './kinds.js';
export const NodeKindSchema = z.enum(NODE_KINDS);
export type NodeKind = z.infer<typeof NodeKindSchema>;

/** `(after: 1, #build)`: one reference as written and what it resolved to. */
export const DepRefSchema = z.object({
  /** As written: "3" or "#build". */
  ref: z.string(),
  /** The item index it names, or null when it names nothing (unknown anchor, 0). */
  index: z.number().int().nullable(),
  span: SpanSchema,
});
export type DepRef = z.infer<typeof DepRefSchema>;

/** `@on <condition> -> <target>`. */
export const RouteSchema = z.object({
  /** The condition as written, e.g. "fail" or "exit!=0". */
  when: z.string(),
  /** `status` for a bare word (ok, fail, pass…), `signal` for key=value / key!=value. */
  kind: z.enum(['status', 'signal']),
  key: z.string().optional(),
  op: z.enum(['=', '!=']).optional(),
  value: z.string().optional(),
  /** Resolved target index; 0 when missing, unparseable or an unknown anchor. */
  target: z.number().int(),
  /** The target as written ("4", "#4", "#deploy", or "" when missing). */
  targetText: z.string(),
  span: SpanSchema,
});
export type Route = z.infer<typeof RouteSchema>;

export const EmitSchema = z.object({ key: z.string(), value: z.string(), span: SpanSchema });
export type Emit = z.infer<typeof EmitSchema>;

export const NeedSchema = z.object({ key: z.string(), span: SpanSchema });
export type Need = z.infer<typeof NeedSchema>;

export const PlanItemSchema = z.object({
  /** 1-based position among all items (done ones too) in document order. */
  index: z.number().int().min(1),
  /** `i<index>`. */
  id: z.string(),
  /** First paragraph, trimmed, markers removed, continuation lines joined by one space. */
  text: z.string(),
  done: z.boolean(),
  kind: NodeKindSchema,
  label: z.string().nullable(),
  /** The command of a `@tool` node (first backtick span, else the whole text); else null. */
  command: z.string().nullable(),
  /** `{#name}` at the end of the item text, without the braces and hash. */
  anchor: z.string().nullable(),
  /** Every dependency reference as written, in order (duplicates included). */
  depRefs: z.array(DepRefSchema),
  /** Valid dependencies: earlier existing items, duplicates collapsed, first-seen order. */
  deps: z.array(z.number().int()),
  routes: z.array(RouteSchema),
  emits: z.array(EmitSchema),
  needs: z.array(NeedSchema),
  scenarios: z.array(z.string()),
  writes: z.array(z.string()),
  /** 1-based line of the checkbox. */
  line: z.number().int().min(1),
  /** From the list marker to the end of the item's first paragraph. */
  span: SpanSchema,
  /** The item text in the source (after markers); used to point at the item. */
  textSpan: SpanSchema,
  /** The kind marker (`@gate`, or the `@node …` line), when one was written. */
  kindSpan: SpanSchema.nullable(),
  /** Offset (UTF-16 units into the original text, BOM included) of the char inside `[ ]`. */
  checkOffset: z.number().int().min(0),
});
export type PlanItem = z.infer<typeof PlanItemSchema>;

/** A marker line that did not attach to an item: before the first item, or unknown. */
export const StrayMarkerSchema = z.object({
  reason: z.enum(['orphan', 'unknown']),
  /** The marker word without `@`, lower-cased. */
  name: z.string(),
  /** The trimmed marker line. */
  text: z.string(),
  span: SpanSchema,
  /** The item it sat under (unknown markers), or null (orphans). */
  item: z.number().int().nullable(),
});
export type StrayMarker = z.infer<typeof StrayMarkerSchema>;

export const PlanIRSchema = z.object({
  /** The plan's path as given to the parser (relative paths stay relative). */
  file: z.string(),
  items: z.array(PlanItemSchema),
  strays: z.array(StrayMarkerSchema),
  /**
   * Lines the old `- [ ]`-only line rule counted as items (fenced ones included), in order,
   * so the numbering-changed check can say where numbering moved.
   */
  legacyItemLines: z.array(z.number().int().min(1)),
});
export type PlanIR = z.infer<typeof PlanIRSchema>;
