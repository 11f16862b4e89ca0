// Agent sessions, generation attempts and user instructions (spec section 3, DESIGN section 3).
import { z } from 'zod';
import { Id, Timestamp, Text } from './common.js';
import { EvaluationState } from './evaluation.js';
import { EvaluationProgress } from './runner.js';
import { CustomProblemInput, Language } from './problem.js';

/** queued -> generating -> evaluating -> completed | failed | stopped. `completed` means evaluated, whatever the verdict. */
export const AttemptStatus = z.enum(['queued', 'generating', 'evaluating', 'completed', 'failed', 'stopped']);
export type AttemptStatus = z.infer<typeof AttemptStatus>;

export const AgentChoice = z.object({ provider: Text.min(1).max(100), model: Text.max(200).nullable().optional() });
export type AgentChoice = z.infer<typeof AgentChoice>;

export const TokenUsage = z.object({ input_tokens: z.number().int(), output_tokens: z.number().int() });
export type TokenUsage = z.infer<typeof TokenUsage>;

export const GenerationAttempt = z.object({
  id: Id,
  session_id: Id,
  instruction_id: Id.nullable(),
  attempt_number: z.number().int().positive(),
  status: AttemptStatus,
  language: Language,
  source: Text.nullable(),
  explanation: Text.nullable(),
  /** Why an attempt `failed` (agent error, runner lost after retries). */
  error: Text.nullable().optional(),
  evaluation_state: EvaluationState.nullable(),
  token_usage: TokenUsage.nullable().optional(),
  runner_seconds: z.number().nullable().optional(),
  created_at: Timestamp,
  finished_at: Timestamp.nullable(),
});
export type GenerationAttempt = z.infer<typeof GenerationAttempt>;

export const InstructionStatus = z.enum(['active', 'generating', 'completed', 'stopped']);
export type InstructionStatus = z.infer<typeof InstructionStatus>;

export const UserInstruction = z.object({
  id: Id,
  session_id: Id,
  text: Text,
  name: Text,
  starred: z.boolean(),
  status: InstructionStatus,
  max_attempts: z.number().int(),
  created_at: Timestamp,
  deleted_at: Timestamp.nullable(),
});
export type UserInstruction = z.infer<typeof UserInstruction>;

export const SessionStatus = z.enum(['active', 'idle', 'stopped']);
export type SessionStatus = z.infer<typeof SessionStatus>;

export const AgentSession = z.object({
  id: Id,
  owner_id: Id,
  problem_name: Text,
  name: Text,
  label: Text,
  device: Text,
  status: SessionStatus,
  agent: AgentChoice,
  custom: z.boolean().default(false),
  created_at: Timestamp,
  updated_at: Timestamp,
  deleted_at: Timestamp.nullable(),
  best_attempt: GenerationAttempt.nullable(),
  generation_attempts: z.array(GenerationAttempt),
  user_instructions: z.array(UserInstruction),
});
export type AgentSession = z.infer<typeof AgentSession>;

/** A list row: the session without its attempts' sources. */
export const AgentSessionSummary = AgentSession.omit({ generation_attempts: true, user_instructions: true }).extend({
  attempt_count: z.number().int(),
});
export type AgentSessionSummary = z.infer<typeof AgentSessionSummary>;

/** A queue as one waiting job sees it: how many jobs of its kind and device come first, and how many run now. */
export const QueuePosition = z.object({
  /** The queue: agent generations, or evaluations on the session's device. */
  job: z.enum(['generate', 'evaluate']),
  /**
   * Queued jobs the claim order would take first: higher priority, or the same priority and queued earlier. An
   * estimate: the claim order also favours users with fewer jobs running, which this count leaves out.
   */
  ahead: z.number().int().nonnegative(),
  running: z.number().int().nonnegative(),
});
export type QueuePosition = z.infer<typeof QueuePosition>;

/**
 * Where a running session's current attempt is, with a horizon (GET /api/v1/agent-session/{id}/progress). All null
 * when no attempt is in flight. The seconds are estimates from earlier attempts, never negative.
 */
export const SessionProgress = z.object({
  attempt_id: Id.nullable(),
  /** The attempt's status: queued (waiting for an agent), generating, evaluating (compiling, checking, timing). */
  phase: z.enum(['queued', 'generating', 'evaluating']).nullable(),
  /** Set while the attempt's job waits in its queue; null once a worker or runner holds it. */
  queue: QueuePosition.nullable(),
  /** How long the job now holding the phase has run; null while it waits. */
  phase_elapsed_seconds: z.number().nonnegative().nullable(),
  /** Seconds this phase likely still needs (typical minus elapsed, floored at 0); null while waiting or unknown. */
  estimate_seconds: z.number().nonnegative().nullable(),
  /** The median duration of this phase in earlier attempts; null when there are none. */
  typical_seconds: z.number().nonnegative().nullable(),
  /** Where the typical duration comes from: this session's attempts, or the owner's recent ones on the problem and device. */
  typical_from: z.enum(['session', 'problem']).nullable(),
  /**
   * While the attempt is being evaluated: which part runs now (compiling, checking test case i of n, timing
   * benchmark case i of n with the samples taken so far), as its runner last reported it; null otherwise or
   * before the runner's first report. Absent from servers before it existed.
   */
  evaluation: EvaluationProgress.nullable().optional(),
  /**
   * Why the attempt's job waits in its queue again after a try ended without a result: e.g. "its runner stopped
   * answering at 18:31:05 UTC; re-queued (try 1 of 3 ended)". Null otherwise; absent from servers before it existed.
   */
  notice: z.string().nullable().optional(),
});
export type SessionProgress = z.infer<typeof SessionProgress>;

export const MAX_ATTEMPTS_PER_INSTRUCTION = 20;
export const DEFAULT_MAX_ATTEMPTS = 5;

export const CreateSessionRequest = z.object({
  problem_name: Text.min(1).max(200),
  device: Text.min(1).max(100),
  instruction: Text.max(10_000).optional(),
  agent: AgentChoice.optional(),
  max_attempts: z.number().int().min(1).max(MAX_ATTEMPTS_PER_INSTRUCTION).optional(),
  name: Text.max(200).optional(),
});
export type CreateSessionRequest = z.infer<typeof CreateSessionRequest>;

export const CreateCustomSessionRequest = z.object({
  name: Text.trim().min(1).max(200),
  problem: CustomProblemInput,
  device: Text.min(1).max(100),
  instruction: Text.max(10_000).optional(),
  agent: AgentChoice.optional(),
  max_attempts: z.number().int().min(1).max(MAX_ATTEMPTS_PER_INSTRUCTION).optional(),
  /** A first candidate of the user's own, evaluated as attempt #1. */
  solution_source: Text.max(200_000).optional(),
});
export type CreateCustomSessionRequest = z.input<typeof CreateCustomSessionRequest>;

export const UpdateSessionRequest = z.object({
  name: Text.trim().min(1).max(200).optional(),
  label: Text.trim().min(1).max(200).optional(),
});
export type UpdateSessionRequest = z.infer<typeof UpdateSessionRequest>;

export const NewAttemptsRequest = z.object({
  instruction: Text.trim().min(1).max(10_000),
  max_attempts: z.number().int().min(1).max(MAX_ATTEMPTS_PER_INSTRUCTION).optional(),
});
export type NewAttemptsRequest = z.infer<typeof NewAttemptsRequest>;

export const NewAttemptsResponse = z.object({
  instruction: UserInstruction,
  generation_attempts: z.array(GenerationAttempt),
});
export type NewAttemptsResponse = z.infer<typeof NewAttemptsResponse>;

export const UpdateInstructionRequest = z.object({ name: Text.trim().min(1).max(200) });
export type UpdateInstructionRequest = z.infer<typeof UpdateInstructionRequest>;

export const ListSessionsParams = z.object({
  limit: z.number().int().min(1).max(1000).optional(),
  offset: z.number().int().min(0).max(1_000_000_000).optional(),
  include_deleted: z.boolean().optional(),
  /** Only deleted sessions (the web's "Deleted" list, from which they are restored). */
  deleted_only: z.boolean().optional(),
});
export type ListSessionsParams = z.infer<typeof ListSessionsParams>;

export const ListAllSessionsParams = ListSessionsParams.extend({
  owner_id: Text.max(100).optional(),
  problem_name: Text.max(200).optional(),
});
export type ListAllSessionsParams = z.infer<typeof ListAllSessionsParams>;

export { CustomProblemInput };
