// The one owner of an agent session's status: every write of `agent_sessions.status` and every `session.status` event.
import type { SessionStatus } from '@kernelforge/sdk';
import type { AppContext } from '../../context.js';
import type { Sql } from '../../db/sql.js';
import { LIVE_ATTEMPT_SQL } from '../attempts/lifecycle.js';

/**
 * The legal moves, as the statuses each target may be reached from. A session is created `active` (the column's
 * default) with its first attempt queued; it is `idle` while no attempt is live, `active` again when an attempt is
 * queued, `stopped` by its owner (a new round of attempts resumes it).
 *
 * Every transition is an UPDATE guarded by the statuses it may come from, and a status never moves to itself, so
 * the event is published exactly when the row changed: one `session.status` per change. An illegal move changes
 * nothing and returns false; each is an expected race (a loop queuing the next attempt of a session stopped
 * meanwhile, a settle after a stop).
 */
export const SESSION_TRANSITIONS = {
  active: ['idle', 'stopped'],
  idle: ['active'],
  stopped: ['active', 'idle'],
} as const satisfies Record<SessionStatus, readonly SessionStatus[]>;

export function canTransitionSession(from: string, to: SessionStatus): boolean {
  return (SESSION_TRANSITIONS[to] as readonly string[]).includes(from);
}

async function transition(
  ctx: AppContext,
  tx: Sql,
  sessionId: string,
  to: SessionStatus,
  from: readonly SessionStatus[] = SESSION_TRANSITIONS[to],
  condition = '',
): Promise<boolean> {
  const rows = await tx.query(
    `UPDATE agent_sessions SET status = '${to}', updated_at = now()
     WHERE id = $1 AND status IN (${from.map((s) => `'${s}'`).join(', ')}) ${condition}
     RETURNING id`,
    [sessionId],
  );
  if (rows.length === 0) return false;
  await ctx.bus.publish(tx, { type: 'session.status', session_id: sessionId, status: to });
  return true;
}

/**
 * An attempt was queued: an idle session becomes active. `resume` (a new round of attempts asked for by the
 * owner) also brings a stopped one back; the session loop never does.
 */
export function markSessionActive(
  ctx: AppContext,
  tx: Sql,
  sessionId: string,
  opts: { resume: boolean } = { resume: false },
): Promise<boolean> {
  return transition(ctx, tx, sessionId, 'active', opts.resume ? SESSION_TRANSITIONS.active : ['idle']);
}

/** An active session with no live attempt left becomes idle. */
export function markSessionIdle(ctx: AppContext, tx: Sql, sessionId: string): Promise<boolean> {
  return transition(
    ctx,
    tx,
    sessionId,
    'idle',
    SESSION_TRANSITIONS.idle,
    `AND NOT EXISTS (SELECT 1 FROM generation_attempts WHERE session_id = $1 AND status IN ${LIVE_ATTEMPT_SQL})`,
  );
}

/** The owner's stop (or delete). */
export function markSessionStopped(ctx: AppContext, tx: Sql, sessionId: string): Promise<boolean> {
  return transition(ctx, tx, sessionId, 'stopped');
}
