/** Changes a run may make to its plan, shared by repairs, `@feedback` and the runtime. */
export const AMENDMENT_BUDGET = 3;

/** The longest ADD text accepted. */
export const MAX_ADD_TEXT = 300;
