/** The host's limit on a workflow script (docs/host-contract.md), in UTF-8 bytes. */
export const HOST_SCRIPT_MAX_BYTES = 524_288;
