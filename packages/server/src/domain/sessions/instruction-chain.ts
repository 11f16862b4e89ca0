// The instruction chain, DESIGN 7's session loop as transactional steps (nothing here loops: each step runs when an
// attempt ends): continue an instruction with its next attempt (created, with its job, by attempts/lifecycle.ts) or finish it,
// settle the session (its status through lifecycle.ts).
import type { InstructionStatus, SessionEvent } from '@kernelforge/sdk';
import type { AppContext } from '../../context.js';
import { type SessionRow, toInstruction } from '../../db/rows.js';
import type { Sql } from '../../db/sql.js';
import { createAttempt, LIVE_ATTEMPT_SQL } from '../attempts/lifecycle.js';
import { findInstruction, findSession } from './queries.js';
import { markSessionActive, markSessionIdle } from './lifecycle.js';
import { scoreSweepProblem } from '../sweeps/scoring.js';

export const DEFAULT_INSTRUCTION = 'Optimize for speed';

export function publish(ctx: AppContext, tx: Sql, event: SessionEvent): Promise<void> {
  return ctx.bus.publish(tx, event);
}

/** Why the session cannot take another attempt now (budgets and the owner's daily quota), or null. */
async function budgetExhausted(ctx: AppContext, tx: Sql, session: SessionRow): Promise<string | null> {
  const [counts] = await tx.query<{ session_attempts: number; user_today: number }>(
    `SELECT (SELECT count(*)::int FROM generation_attempts WHERE session_id = $1) AS session_attempts,
            (SELECT count(*)::int FROM generation_attempts a JOIN agent_sessions s ON s.id = a.session_id
              WHERE s.owner_id = $2 AND a.created_at > now() - interval '1 day') AS user_today`,
    [session.id, session.owner_id],
  );
  const maxAttempts = session.max_total_attempts ?? ctx.config.sessions.maxAttempts;
  const maxSeconds = session.max_runner_seconds ?? ctx.config.sessions.maxRunnerSeconds;
  if ((counts?.session_attempts ?? 0) >= maxAttempts) return `the session's budget of ${maxAttempts} attempts is spent`;
  if (Number(session.runner_seconds) >= maxSeconds)
    return `the session's budget of ${maxSeconds} runner seconds is spent`;
  if ((counts?.user_today ?? 0) >= ctx.config.dailyLimits.attempts) {
    return `the daily limit of ${ctx.config.dailyLimits.attempts} attempts is reached`;
  }
  return null;
}

/** Attempts left for the owner today (for a 429 before any work is accepted). */
export async function dailyAttemptsLeft(ctx: AppContext, sql: Sql, ownerId: string): Promise<number> {
  const [row] = await sql.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM generation_attempts a JOIN agent_sessions s ON s.id = a.session_id
     WHERE s.owner_id = $1 AND a.created_at > now() - interval '1 day'`,
    [ownerId],
  );
  return ctx.config.dailyLimits.attempts - (row?.n ?? 0);
}

/**
 * After an attempt of an instruction finished: queue the next one while the instruction has attempts left
 * and nothing stopped it; otherwise mark the instruction completed. Then settle the session's status.
 */
export async function continueInstruction(
  ctx: AppContext,
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
      `SELECT count(*)::int AS n, count(*) FILTER (WHERE status IN ${LIVE_ATTEMPT_SQL})::int AS live
       FROM generation_attempts WHERE instruction_id = $1`,
      [instruction.id],
    );
    const done = (row?.n ?? 0) >= instruction.max_attempts;
    const blocked = done ? null : await budgetExhausted(ctx, tx, session);
    if (!done && !blocked) {
      // One attempt at a time per instruction: a duplicate call (a retried result) must not fork the chain.
      if ((row?.live ?? 0) === 0) {
        await markSessionActive(ctx, tx, sessionId);
        await createAttempt(ctx, tx, session, { instructionId: instruction.id });
      }
      return;
    }
    if ((row?.live ?? 0) === 0) await finishInstruction(ctx, tx, instruction.id, 'completed');
  }
  await settleSession(ctx, tx, sessionId);
}

/**
 * An instruction's legal moves (this file is the one writer of `user_instructions.status`): it is created `active`
 * and ends once, completed or stopped; a final instruction stays as it is.
 */
export const INSTRUCTION_TRANSITIONS = {
  completed: ['active', 'generating'],
  stopped: ['active', 'generating'],
} as const satisfies Partial<Record<InstructionStatus, readonly InstructionStatus[]>>;

/** Marks an instruction completed or stopped (unless already final) and tells subscribers. */
export async function finishInstruction(
  ctx: AppContext,
  tx: Sql,
  instructionId: string,
  status: keyof typeof INSTRUCTION_TRANSITIONS,
) {
  const from = INSTRUCTION_TRANSITIONS[status].map((s) => `'${s}'`).join(', ');
  const rows = await tx.query<Parameters<typeof toInstruction>[0]>(
    `UPDATE user_instructions SET status = $2 WHERE id = $1 AND status IN (${from})
     RETURNING id, session_id, text, name, starred, status, max_attempts, created_at, deleted_at`,
    [instructionId, status],
  );
  const row = rows[0];
  if (row)
    await publish(ctx, tx, {
      type: 'instruction.updated',
      session_id: row.session_id,
      instruction: toInstruction(row),
    });
}

/** An active session with no live attempt becomes idle (lifecycle.ts); a sweep's session then has its best
    attempt scored. */
export async function settleSession(ctx: AppContext, tx: Sql, sessionId: string): Promise<void> {
  if (await markSessionIdle(ctx, tx, sessionId)) await scoreSweepProblem(ctx, tx, sessionId);
}
