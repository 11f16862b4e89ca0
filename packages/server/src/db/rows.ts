// Database rows of the product tables and their wire shapes (sdk schemas); the one place that maps between them.
import {
  type AgentSession,
  type AgentSessionSummary,
  type EvaluationState,
  type GenerationAttempt,
  rankingTime,
  type UserInstruction,
} from '@kernelforge/sdk';
import { iso, isoOrNull } from './sql.js';

export interface SessionRow {
  id: string;
  owner_id: string;
  problem_name: string;
  custom_problem: Record<string, unknown> | null;
  name: string;
  label: string;
  device: string;
  status: string;
  agent: { provider: string; model?: string | null };
  max_total_attempts: number | null;
  max_runner_seconds: number | null;
  runner_seconds: number;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
}

export interface InstructionRow {
  id: string;
  session_id: string;
  text: string;
  name: string;
  starred: boolean;
  status: string;
  max_attempts: number;
  created_at: Date;
  deleted_at: Date | null;
}

export interface AttemptRow {
  id: string;
  session_id: string;
  instruction_id: string | null;
  attempt_number: number;
  status: string;
  language: string;
  source: string | null;
  explanation: string | null;
  error: string | null;
  agent_meta: Record<string, unknown> | null;
  evaluation_state: EvaluationState | null;
  token_usage: { input_tokens: number; output_tokens: number } | null;
  runner_seconds: number | null;
  created_at: Date;
  finished_at: Date | null;
}

export const SESSION_COLUMNS =
  'id, owner_id, problem_name, custom_problem, name, label, device, status, agent, max_total_attempts, max_runner_seconds, runner_seconds, created_at, updated_at, deleted_at';
export const INSTRUCTION_COLUMNS = 'id, session_id, text, name, starred, status, max_attempts, created_at, deleted_at';
export const ATTEMPT_COLUMNS =
  'id, session_id, instruction_id, attempt_number, status, language, source, explanation, error, agent_meta, evaluation_state, token_usage, runner_seconds, created_at, finished_at';

export function toAttempt(r: AttemptRow): GenerationAttempt {
  return {
    id: r.id,
    session_id: r.session_id,
    instruction_id: r.instruction_id,
    attempt_number: r.attempt_number,
    status: r.status as GenerationAttempt['status'],
    language: r.language as GenerationAttempt['language'],
    source: r.source,
    explanation: r.explanation,
    error: r.error,
    evaluation_state: r.evaluation_state,
    token_usage: r.token_usage,
    runner_seconds: r.runner_seconds === null ? null : Number(r.runner_seconds),
    created_at: iso(r.created_at),
    finished_at: isoOrNull(r.finished_at),
  };
}

export function toInstruction(r: InstructionRow): UserInstruction {
  return {
    id: r.id,
    session_id: r.session_id,
    text: r.text,
    name: r.name,
    starred: r.starred,
    status: r.status as UserInstruction['status'],
    max_attempts: r.max_attempts,
    created_at: iso(r.created_at),
    deleted_at: isoOrNull(r.deleted_at),
  };
}

/**
 * The spec's rule: the completed attempt with the lowest evaluation_state.benchmarking_result.optimized_time
 * (no time counts as the largest); none completed: the first attempt. Ties keep the earlier attempt. The time is the
 * sdk's rankingTime: a verdict other than `accepted` carries none (session-json.ts says the same in SQL).
 */
export function bestAttempt<
  T extends { attempt_number: number; status: string; evaluation_state: EvaluationState | null },
>(attempts: T[]): T | null {
  const ordered = [...attempts].sort((a, b) => a.attempt_number - b.attempt_number);
  const time = (a: T) => rankingTime(a) ?? Number.POSITIVE_INFINITY;
  let best: T | null = null;
  for (const a of ordered) {
    if (a.status !== 'completed') continue;
    if (best === null || time(a) < time(best)) best = a;
  }
  return best ?? ordered[0] ?? null;
}

function sessionBase(r: SessionRow) {
  return {
    id: r.id,
    owner_id: r.owner_id,
    problem_name: r.problem_name,
    name: r.name,
    label: r.label,
    device: r.device,
    status: r.status as AgentSession['status'],
    agent: { provider: r.agent.provider, model: r.agent.model ?? null },
    custom: r.custom_problem !== null,
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
    deleted_at: isoOrNull(r.deleted_at),
  };
}

export function toSession(r: SessionRow, attempts: AttemptRow[], instructions: InstructionRow[]): AgentSession {
  const wire = attempts.map(toAttempt);
  return {
    ...sessionBase(r),
    best_attempt: bestAttempt(wire),
    generation_attempts: wire,
    user_instructions: instructions.map(toInstruction),
  };
}

/** A list row; the best attempt is computed from attempts fetched without their sources. */
export function toSessionSummary(r: SessionRow, attempts: AttemptRow[]): AgentSessionSummary {
  const wire = attempts.map(toAttempt);
  return { ...sessionBase(r), best_attempt: bestAttempt(wire), attempt_count: wire.length };
}
