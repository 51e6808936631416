import type { AnswerScript } from './answers.js';

/** An error as it leaves the stand-in: the fields a script or a report can rely on. */
export interface HostError {
  name: string;
  message: string;
}

/** A load refusal: which host-contract rule the script broke, and where (1-based). */
export interface HostViolation {
  code: string;
  message: string;
  line: number;
  column: number;
}

/**
 * The static host-contract check, injected: `checkWorkflowScript` from compiler/emit/check
 * fits as is. runtime/ never imports compiler/ (docs/architecture.md), so the caller wires it.
 */
export type StaticCheck = (source: string, file: string) => readonly HostViolation[];

/** What happened to one agent() call. */
export type AgentCallStatus = 'answered' | 'null' | 'threw';

/** One agent() call, in call order. */
export interface AgentCall {
  /** 1-based position among all agent() calls of the run. */
  index: number;
  label: string | null;
  /** `opts.phase`, else the title of the latest phase() call, else null. */
  phase: string | null;
  prompt: string;
  /** The options as given (JSON-cloned). */
  options: Record<string, unknown>;
  /** The value agent() resolved to (null for 'null' and 'threw'). */
  answer: unknown;
  status: AgentCallStatus;
  /** Set when status is 'threw'. */
  error?: HostError;
  /** Where the answer came from: the index of the answer-script rule, or 'default'. Null when the call never ran. */
  source: number | 'default' | null;
  /** Answers consumed (schema retries each consume one). */
  attempts: number;
  tokens: number;
}

/** Everything a run leaves behind. */
export interface HostRun {
  ok: boolean;
  /** The body's return value, JSON-cloned (absent when it returned undefined or failed). */
  result?: unknown;
  /** The result as the host shows it: JSON, truncated to 8,000 characters. */
  resultPreview?: string;
  error?: HostError;
  /** Set when the loader refused the script. */
  violations?: HostViolation[];
  journal: AgentCall[];
  /** log() and console.* lines, the most recent 1,000. */
  logs: string[];
  /** phase() titles in call order. */
  phases: string[];
  /** The evaluated meta literal ({} when the loader refused the script before reading it). */
  meta: Record<string, unknown>;
  stats: HostRunStats;
}

export interface HostRunStats {
  agents: number;
  /** The most agents observed running at once. */
  maxConcurrency: number;
  tokensSpent: number;
  logsDropped: number;
  /** Virtual milliseconds the run took (agents and timers advance the clock, nothing else). */
  virtualMs: number;
}

/** Options of runWorkflowScript. */
export interface RunOptions {
  /** The Workflow tool's structured args (or the text after `/<name>`), deep-copied into the realm. */
  args?: unknown;
  /** Scripted agent answers; without a matching rule an agent gets a default answer. */
  answers?: AnswerScript;
  /** The token budget; null or absent means unlimited. */
  budgetTotal?: number | null;
  /** The script's file name, for messages and stack traces. */
  file?: string;
  /** Wall-clock limit of the whole run (default 60 s); the first synchronous slice is also held to 30 s. */
  timeoutMs?: number;
  /** The static host-contract check run by the loader (compiler/emit/check's checkWorkflowScript). */
  staticCheck?: StaticCheck;
  /** Tokens an answer costs when its rule names none (default 1,000). */
  defaultTokens?: number;
}
