import { addBudget } from './add-budget.js';
import { addOnly } from './add-only.js';
import type { Bound } from './bound.js';
import { malformed } from './malformed.js';
import { noDelete } from './no-delete.js';
import { noGuardrails } from './no-guardrails.js';
import { noTouchDone } from './no-touch-done.js';
import { repairOnly } from './repair-only.js';
import { workOnly } from './work-only.js';

export type { Bound, BoundInput } from './bound.js';

/** Every bound, in the order docs/compile.md judges them; the first to object refuses. */
export const BOUNDS: readonly Bound[] = [addBudget, noDelete, noTouchDone, noGuardrails, addOnly, workOnly, malformed, repairOnly];
