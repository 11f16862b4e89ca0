// Stopping work now: cancel pending jobs, mark unfinished attempts stopped; attempts already evaluated stay as they are.
import type { AppContext } from '../../context.js';
import type { Sql } from '../../db/sql.js';
import { LIVE_ATTEMPT_SQL, markStopped } from '../attempts/lifecycle.js';
import { cancelAttemptJobs } from '../../jobs/queue.js';
import { finishInstruction, settleSession } from './instruction-chain.js';
import { markSessionStopped } from './lifecycle.js';

/**
 * Stops the unfinished attempts of a session (or of one instruction). Generating attempts are aborted:
 * their workers hear the `attempt.updated` event or lose their lease at the next heartbeat. An attempt whose
 * evaluation a runner already holds is left to finish, so a measurement under way is not thrown away.
 */
export async function stopAttempts(
  ctx: AppContext,
  tx: Sql,
  scope: { sessionId: string } | { instructionId: string },
): Promise<void> {
  const where = 'sessionId' in scope ? 'session_id = $1' : 'instruction_id = $1';
  const key = 'sessionId' in scope ? scope.sessionId : scope.instructionId;
  const live = await tx.query<{ id: string; status: string }>(
    `SELECT id, status FROM generation_attempts WHERE ${where} AND status IN ${LIVE_ATTEMPT_SQL} FOR UPDATE`,
    [key],
  );
  if (live.length === 0) return;
  const cancelled = await cancelAttemptJobs(
    tx,
    live.map((a) => a.id),
  );
  // An evaluating attempt stops only when its evaluation had not started (its job was still queued).
  const stoppable = new Set([
    ...live.filter((a) => a.status !== 'evaluating').map((a) => a.id),
    ...cancelled.filter((j) => j.kind === 'evaluate').map((j) => String(j.payload.target_id)),
  ]);
  if (stoppable.size === 0) return;
  await markStopped(ctx, tx, [...stoppable]);
}

/** Session stop: every active instruction stops, unfinished attempts stop, the session is `stopped`. */
export async function stopSessionWork(ctx: AppContext, tx: Sql, sessionId: string): Promise<void> {
  await tx.query('SELECT id FROM agent_sessions WHERE id = $1 FOR UPDATE', [sessionId]);
  const active = await tx.query<{ id: string }>(
    `SELECT id FROM user_instructions WHERE session_id = $1 AND status IN ('active', 'generating')`,
    [sessionId],
  );
  for (const i of active) await finishInstruction(ctx, tx, i.id, 'stopped');
  await stopAttempts(ctx, tx, { sessionId });
  await markSessionStopped(ctx, tx, sessionId);
}

/** Instruction stop: its unfinished attempts stop; other instructions of the session go on. */
export async function stopInstructionWork(
  ctx: AppContext,
  tx: Sql,
  sessionId: string,
  instructionId: string,
): Promise<void> {
  await tx.query('SELECT id FROM agent_sessions WHERE id = $1 FOR UPDATE', [sessionId]);
  await finishInstruction(ctx, tx, instructionId, 'stopped');
  await stopAttempts(ctx, tx, { instructionId });
  await settleSession(ctx, tx, sessionId);
}
