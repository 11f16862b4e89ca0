// The agent contract the session loop codes against: context in, one candidate source out.
import type { Device, EvaluationState, Language, Problem } from '@kernelforge/sdk';

/** One earlier attempt of this session as an agent sees it. */
export interface AgentAttemptView {
  attempt_number: number;
  status: string;
  source: string | null;
  explanation: string | null;
  evaluation_state: EvaluationState | null;
  agent_meta: Record<string, unknown> | null;
}

export interface AgentContext {
  problem: Problem;
  device: Device;
  language: Language;
  /** Oldest first, this session. */
  history: AgentAttemptView[];
  best: AgentAttemptView | null;
  /** Every active instruction, oldest first. */
  instructions: string[];
  currentInstruction: string | null;
  attemptNumber: number;
  signal: AbortSignal;
  onText?: (delta: string) => void;
}

export interface AgentResult {
  source: string;
  language: Language;
  explanation: string;
  usage?: { input_tokens: number; output_tokens: number };
  agent_meta?: Record<string, unknown>;
}

export interface Agent {
  readonly provider: string;
  generate(ctx: AgentContext): Promise<AgentResult>;
}

/** A generation failure; `retryable` tells the loop whether trying the same attempt again can help. */
export class AgentError extends Error {
  readonly retryable: boolean;
  constructor(message: string, opts?: { retryable?: boolean; cause?: unknown }) {
    super(message, opts?.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'AgentError';
    this.retryable = opts?.retryable ?? false;
  }
}
