import { z } from 'zod';

/** Where amendments come from: a compile repair, a `@feedback` node, or the runtime deadlock repair. */
export const AmendContextSchema = z.enum(['repair', 'feedback', 'runtime']);
export type AmendContext = z.infer<typeof AmendContextSchema>;

const common = {
  /** The proposal line as written (trimmed). */
  raw: z.string(),
  /** 1-based line inside the amend block. */
  line: z.number().int().min(1),
  /** The verb as written. */
  word: z.string(),
  /** Why the line did not fit its verb's grammar, or null. */
  problem: z.string().nullable(),
};

/** `ROUTE <item> <condition> -> <target>`: re-point a route the item already declares. */
export const RouteProposalSchema = z.object({
  verb: z.literal('ROUTE'),
  ...common,
  item: z.string(),
  condition: z.string(),
  target: z.string(),
});

/** `ADD [(after: N)] <text>`: append one plain work item at the end of the plan. */
export const AddProposalSchema = z.object({
  verb: z.literal('ADD'),
  ...common,
  /** The `(after: …)` references as written, or null when none was given. */
  after: z.array(z.string()).nullable(),
  text: z.string(),
});

/**
 * Lines the bounds must refuse, recognised so each gets its own code: DELETE (delete,
 * remove, drop), EDIT (edit, set, rewrite, rename, replace, change, update, move), TICK
 * (tick, untick, check, uncheck, done, undone, reopen, complete, mark) and UNKNOWN.
 */
export const OtherProposalSchema = z.object({
  verb: z.enum(['DELETE', 'EDIT', 'TICK', 'UNKNOWN']),
  ...common,
  /** Everything after the verb, trimmed. */
  rest: z.string(),
});

export const ProposalSchema = z.discriminatedUnion('verb', [RouteProposalSchema, AddProposalSchema, OtherProposalSchema]);
export type Proposal = z.infer<typeof ProposalSchema>;
export type RouteProposal = z.infer<typeof RouteProposalSchema>;
export type AddProposal = z.infer<typeof AddProposalSchema>;

/** The bound codes, in the order they are judged (docs/compile.md). */
export const BOUND_CODES = [
  'add-budget',
  'no-delete',
  'no-touch-done',
  'no-guardrails',
  'add-only',
  'work-only',
  'malformed',
  'repair-only',
] as const;
export const BoundCodeSchema = z.enum(BOUND_CODES);
export type BoundCode = z.infer<typeof BoundCodeSchema>;

/** A refused proposal and the bound that refused it. */
export const RefusalSchema = z.object({ proposal: ProposalSchema, code: BoundCodeSchema, detail: z.string() });
export type Refusal = z.infer<typeof RefusalSchema>;

/** The verdict on a batch: accepted proposals in order, refusals in order, changes spent after it. */
export const JudgementSchema = z.object({
  accepted: z.array(ProposalSchema),
  refused: z.array(RefusalSchema),
  used: z.number().int().min(0),
});
export type Judgement = z.infer<typeof JudgementSchema>;

// The limits live in a zod-free module so the workflow bundle can judge amendments
// without pulling zod in (runtime/workflow must not load zod at run time).
export { AMENDMENT_BUDGET, MAX_ADD_TEXT } from './limits.js';
