/** The host's limit on a workflow script (CLAUDE-CODE.md §1), in UTF-8 bytes. */
export const HOST_SCRIPT_MAX_BYTES = 524_288;
