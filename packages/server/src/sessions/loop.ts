// The session loop's transactional steps (DESIGN 7): queue an attempt, continue or finish an instruction, settle the session.
import { torchJobProblem } from '@kernelforge/runner';
import type { EvaluationJobPayload, Language, SessionEvent } from '@kernelforge/sdk';
import { enqueueJob } from '../jobs/queue.js';
import { JOB_PRIORITY } from '../jobs/types.js';
import type { Product } from '../services/product.js';
import { ATTEMPT_COLUMNS, type AttemptRow, type SessionRow, toAttempt, toInstruction } from '../services/rows.js';
import type { Sql } from '../services/sql.js';
import { findInstruction, findSession } from './queries.js';

export const DEFAULT_INSTRUCTION = 'Optimize for speed';
const LIVE_ATTEMPT = "('queued', 'generating', 'evaluating')";

/** The language attempts of a session are written in: a pytorch problem's is `pytorch`; else the device decides, a custom problem may say. */
export function sessionLanguage(
  session: Pick<SessionRow, 'device' | 'custom_problem'>,
  problemKind: 'c' | 'pytorch' = 'c',
): Language {
  if (problemKind === 'pytorch') return 'pytorch';
  if (session.device.startsWith('cuda')) return 'cuda';
  const custom = session.custom_problem as { language?: Language } | null;
  return custom?.language && custom.language !== 'cuda' ? custom.language : 'c';
}

export function publish(p: Product, tx: Sql, event: SessionEvent): Promise<void> {
  return p.bus.publish(tx, event);
}

/**
 * Creates the next numbered attempt (queued) and its generate job. The session row lock serialises
 * numbering, and the unique (session_id, attempt_number) constraint backs it up.
 */
export async function queueAttempt(p: Product, tx: Sql, sessionId: string, instructionId: string): Promise<AttemptRow> {
  const session = await findSession(tx, sessionId, { lock: true });
  if (!session) throw new Error(`session ${sessionId} vanished`);
  const rows = await tx.query<AttemptRow>(
    `INSERT INTO generation_attempts (session_id, instruction_id, attempt_number, status, language)
     SELECT $1, $2, coalesce(max(attempt_number), 0) + 1, 'queued', $3 FROM generation_attempts WHERE session_id = $1
     RETURNING ${ATTEMPT_COLUMNS}`,
    [sessionId, instructionId, sessionLanguage(session, await problemKind(p, session))],
  );
  const attempt = rows[0] as AttemptRow;
  await enqueueJob(tx, {
    kind: 'generate',
    payload: { attempt_id: attempt.id },
    sessionId,
    maxAttempts: p.config.jobs.maxTries,
    dedupeKey: `generate:${attempt.id}`,
    priority: await attemptPriority(tx, attempt),
    ownerId: session.owner_id,
  });
  await tx.query(
    `UPDATE agent_sessions SET status = 'active', updated_at = now() WHERE id = $1 AND status <> 'stopped'`,
    [sessionId],
  );
  if (session.status === 'idle')
    await publish(p, tx, { type: 'session.status', session_id: sessionId, status: 'active' });
  await publish(p, tx, { type: 'attempt.created', session_id: sessionId, attempt: toAttempt(attempt) });
  return attempt;
}

async function problemKind(p: Product, session: Pick<SessionRow, 'problem_name' | 'custom_problem'>) {
  if (session.custom_problem) return 'c';
  return (await p.catalogue.find(session.problem_name))?.kind ?? 'c';
}

/** Queues the evaluation of a generated attempt on the session's device. */
export async function queueEvaluation(p: Product, tx: Sql, session: SessionRow, attempt: AttemptRow): Promise<void> {
  const payload: EvaluationJobPayload = {
    kind: 'attempt',
    target_id: attempt.id,
    mode: 'benchmark',
    problem_name: session.problem_name,
    device: session.device,
    language: attempt.language as Language,
    source: attempt.source ?? '',
    ...(session.custom_problem
      ? { custom_problem: session.custom_problem as EvaluationJobPayload['custom_problem'] }
      : {}),
  };
  // A pytorch problem travels with its job (file and this device's sizes), as submissions do: a remote runner may not have it.
  if (!session.custom_problem && (await problemKind(p, session)) === 'pytorch') {
    // Only the device's kind picks the sizes; no device lookup here (it would query outside `tx`, and PGlite's
    // single connection is held by this transaction).
    const kind = session.device.startsWith('cuda') ? 'cuda' : 'cpu';
    const def = (await p.catalogue.definitions()).get(session.problem_name);
    const tp = torchJobProblem(payload, def, { kind } as Parameters<typeof torchJobProblem>[2]);
    if (tp) payload.torch_problem = tp;
  }
  await enqueueJob(tx, {
    kind: 'evaluate',
    payload,
    device: session.device,
    sessionId: session.id,
    maxAttempts: p.config.jobs.maxTries,
    dedupeKey: `evaluate:attempt:${attempt.id}`,
    priority: await attemptPriority(tx, attempt),
    ownerId: session.owner_id,
  });
}

/** The first attempt of an instruction answers a user who just asked; later ones are the session grinding on. */
async function attemptPriority(tx: Sql, attempt: AttemptRow): Promise<number> {
  if (!attempt.instruction_id) return JOB_PRIORITY.laterAttempt;
  const [row] = await tx.query<{ first: boolean }>(
    `SELECT NOT EXISTS (SELECT 1 FROM generation_attempts WHERE instruction_id = $1 AND attempt_number < $2) AS first`,
    [attempt.instruction_id, attempt.attempt_number],
  );
  return row?.first ? JOB_PRIORITY.firstAttempt : JOB_PRIORITY.laterAttempt;
}

/** Why the session cannot take another attempt now (budgets and the owner's daily quota), or null. */
async function budgetExhausted(p: Product, tx: Sql, session: SessionRow): Promise<string | null> {
  const [counts] = await tx.query<{ session_attempts: number; user_today: number }>(
    `SELECT (SELECT count(*)::int FROM generation_attempts WHERE session_id = $1) AS session_attempts,
            (SELECT count(*)::int FROM generation_attempts a JOIN agent_sessions s ON s.id = a.session_id
              WHERE s.owner_id = $2 AND a.created_at > now() - interval '1 day') AS user_today`,
    [session.id, session.owner_id],
  );
  const maxAttempts = session.max_total_attempts ?? p.config.sessions.maxAttempts;
  const maxSeconds = session.max_runner_seconds ?? p.config.sessions.maxRunnerSeconds;
  if ((counts?.session_attempts ?? 0) >= maxAttempts) return `the session's budget of ${maxAttempts} attempts is spent`;
  if (Number(session.runner_seconds) >= maxSeconds)
    return `the session's budget of ${maxSeconds} runner seconds is spent`;
  if ((counts?.user_today ?? 0) >= p.config.dailyLimits.attempts) {
    return `the daily limit of ${p.config.dailyLimits.attempts} attempts is reached`;
  }
  return null;
}

/** Attempts left for the owner today (for a 429 before any work is accepted). */
export async function dailyAttemptsLeft(p: Product, sql: Sql, ownerId: string): Promise<number> {
  const [row] = await sql.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM generation_attempts a JOIN agent_sessions s ON s.id = a.session_id
     WHERE s.owner_id = $1 AND a.created_at > now() - interval '1 day'`,
    [ownerId],
  );
  return p.config.dailyLimits.attempts - (row?.n ?? 0);
}

/**
 * After an attempt of an instruction finished: queue the next one while the instruction has attempts left
 * and nothing stopped it; otherwise mark the instruction completed. Then settle the session's status.
 */
export async function continueInstruction(
  p: Product,
  tx: Sql,
  sessionId: string,
  instructionId: string | null,
): Promise<void> {
  const session = await findSession(tx, sessionId, { lock: true });
  if (!session) return;
  const instruction = instructionId ? await findInstruction(tx, instructionId) : null;
  const runnable =
    instruction &&
    instruction.status === 'active' &&
    instruction.deleted_at === null &&
    session.status !== 'stopped' &&
    session.deleted_at === null;
  if (runnable) {
    const [row] = await tx.query<{ n: number; live: number }>(
      `SELECT count(*)::int AS n, count(*) FILTER (WHERE status IN ${LIVE_ATTEMPT})::int AS live
       FROM generation_attempts WHERE instruction_id = $1`,
      [instruction.id],
    );
    const done = (row?.n ?? 0) >= instruction.max_attempts;
    const blocked = done ? null : await budgetExhausted(p, tx, session);
    if (!done && !blocked) {
      // One attempt at a time per instruction: a duplicate call (a retried result) must not fork the chain.
      if ((row?.live ?? 0) === 0) await queueAttempt(p, tx, sessionId, instruction.id);
      return;
    }
    if ((row?.live ?? 0) === 0) await finishInstruction(p, tx, instruction.id, 'completed');
  }
  await settleSession(p, tx, sessionId);
}

/** Marks an instruction completed or stopped (unless already final) and tells subscribers. */
export async function finishInstruction(p: Product, tx: Sql, instructionId: string, status: 'completed' | 'stopped') {
  const rows = await tx.query<Parameters<typeof toInstruction>[0]>(
    `UPDATE user_instructions SET status = $2 WHERE id = $1 AND status IN ('active', 'generating')
     RETURNING id, session_id, text, name, starred, status, max_attempts, created_at, deleted_at`,
    [instructionId, status],
  );
  const row = rows[0];
  if (row)
    await publish(p, tx, { type: 'instruction.updated', session_id: row.session_id, instruction: toInstruction(row) });
}

/** An active session with no live attempt becomes idle. */
export async function settleSession(p: Product, tx: Sql, sessionId: string): Promise<void> {
  const rows = await tx.query(
    `UPDATE agent_sessions SET status = 'idle', updated_at = now()
     WHERE id = $1 AND status = 'active'
       AND NOT EXISTS (SELECT 1 FROM generation_attempts WHERE session_id = $1 AND status IN ${LIVE_ATTEMPT})
     RETURNING id`,
    [sessionId],
  );
  if (rows.length > 0) await publish(p, tx, { type: 'session.status', session_id: sessionId, status: 'idle' });
}
