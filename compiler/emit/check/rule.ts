import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import type { ParsedScript } from './script.js';

/** One rule of the host contract: the parsed script in, its violations out. */
export type HostContractRule = (script: ParsedScript) => Diagnostic[];
