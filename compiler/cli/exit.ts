/** Exit codes shared by every command (docs/architecture.md): 0 ok, 1 plan errors or drift, 2 usage / I/O, 3 a bug. */
export const EXIT = { ok: 0, planErrors: 1, usage: 2, internal: 3 } as const;
