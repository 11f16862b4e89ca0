// The one owner of a generation attempt's lifecycle: every status write, every attempt event and every attempt job
// (a queued attempt's `generate` job, an evaluating one's `evaluate` job) goes through here.
import type { AttemptStatus, EvaluationState } from '@kernelforge/sdk';
import type { AppContext } from '../../context.js';
import { ATTEMPT_COLUMNS, type AttemptRow, toAttempt } from '../../db/rows.js';
import type { Sql } from '../../db/sql.js';
import { type AttemptSession, enqueueEvaluate, enqueueGenerate, problemKind, sessionLanguage } from './jobs.js';
import { isUuid } from '../sessions/queries.js';

/**
 * The legal moves, as the statuses each target may be reached from (DESIGN 3:
 * queued -> generating -> evaluating -> completed | failed | stopped).
 *
 * Every transition is a guarded UPDATE (`WHERE status IN (from)`): an illegal one changes nothing, publishes
 * nothing and returns null. It is a no-op rather than an error because each illegal case is a race the system
 * expects, not a bug, and the caller's right answer is always "drop it":
 * - generating <- generating: a retried generate job finds its attempt already there (no second event).
 * - evaluating from anything but generating: the generation finished after a stop or failure; it is discarded.
 * - completed from anything but evaluating: a late runner report for a stopped or failed attempt must not
 *   resurrect it; the report is discarded (its job still completes).
 * - failed / stopped from a final status: the attempt already ended; its outcome stands.
 * Creating an attempt is not guarded this way: its session is locked by the caller and a duplicate number
 * breaks the unique (session_id, attempt_number) constraint, which throws.
 */
export const ATTEMPT_TRANSITIONS = {
  generating: ['queued', 'generating'],
  evaluating: ['generating'],
  completed: ['evaluating'],
  failed: ['queued', 'generating', 'evaluating'],
  stopped: ['queued', 'generating', 'evaluating'],
} as const satisfies Record<Exclude<AttemptStatus, 'queued'>, readonly AttemptStatus[]>;

/** Statuses of an attempt that may still change. */
export const LIVE_ATTEMPT_STATUSES: readonly AttemptStatus[] = ['queued', 'generating', 'evaluating'];
/** The same list as SQL, for queries that count or wait on live attempts. */
export const LIVE_ATTEMPT_SQL = `(${LIVE_ATTEMPT_STATUSES.map((s) => `'${s}'`).join(', ')})`;

export function canTransition(from: string, to: keyof typeof ATTEMPT_TRANSITIONS): boolean {
  return (ATTEMPT_TRANSITIONS[to] as readonly string[]).includes(from);
}

/** Runs one guarded UPDATE to `to`; the rows that moved (none when every id was in an illegal state). */
async function transition(
  tx: Sql,
  ids: string[],
  to: keyof typeof ATTEMPT_TRANSITIONS,
  set = '',
  params: unknown[] = [],
): Promise<AttemptRow[]> {
  const valid = ids.filter(isUuid);
  if (valid.length === 0) return [];
  const from = ATTEMPT_TRANSITIONS[to];
  return tx.query<AttemptRow>(
    `UPDATE generation_attempts SET status = '${to}'${set ? `, ${set}` : ''}
     WHERE id = ANY($1::uuid[]) AND status IN (${from.map((s) => `'${s}'`).join(', ')})
     RETURNING ${ATTEMPT_COLUMNS}`,
    [valid, ...params],
  );
}

/**
 * One event per status change: `attempt.updated` with the whole attempt (its status among it), so a client's view
 * of the attempt is the last event it saw. Creation is `attempt.created` (see createAttempt).
 */
async function announce(ctx: AppContext, tx: Sql, attempt: AttemptRow): Promise<void> {
  await ctx.bus.publish(tx, { type: 'attempt.updated', session_id: attempt.session_id, attempt: toAttempt(attempt) });
}

/**
 * Creates the session's next numbered attempt with the job it waits on, in the caller's transaction: `queued` with
 * its `generate` job for an agent to write, or `evaluating` with its `evaluate` job when its source is already known
 * (a custom session's own solution). Its language is the session's (`sessionLanguage`). The caller holds the session
 * row lock, which serialises numbering; the unique (session_id, attempt_number) constraint backs it up.
 */
export async function createAttempt(
  ctx: AppContext,
  tx: Sql,
  session: AttemptSession,
  values: {
    instructionId: string;
    given?: { source: string; explanation: string } | undefined;
  },
): Promise<AttemptRow> {
  const language = sessionLanguage(session, await problemKind(ctx, session));
  const rows = await tx.query<AttemptRow>(
    `INSERT INTO generation_attempts (session_id, instruction_id, attempt_number, status, language, source, explanation)
     SELECT $1, $2, coalesce(max(attempt_number), 0) + 1, $3, $4, $5, $6 FROM generation_attempts WHERE session_id = $1
     RETURNING ${ATTEMPT_COLUMNS}`,
    [
      session.id,
      values.instructionId,
      values.given ? 'evaluating' : 'queued',
      language,
      values.given?.source ?? null,
      values.given?.explanation ?? null,
    ],
  );
  const attempt = rows[0] as AttemptRow;
  await ctx.bus.publish(tx, { type: 'attempt.created', session_id: session.id, attempt: toAttempt(attempt) });
  if (values.given) await enqueueEvaluate(ctx, tx, session, attempt);
  else await enqueueGenerate(ctx, tx, session, attempt);
  return attempt;
}

/**
 * A generate worker takes the attempt: queued -> generating. A retried job finds it generating already and
 * gets it back without a second event. Null when the attempt ended meanwhile.
 */
export async function markGenerating(ctx: AppContext, tx: Sql, attemptId: string): Promise<AttemptRow | null> {
  const [before] = await tx.query<{ status: string }>('SELECT status FROM generation_attempts WHERE id = $1', [
    attemptId,
  ]);
  const [row] = await transition(tx, [attemptId], 'generating');
  if (!row) return null;
  if (before?.status === 'queued') await announce(ctx, tx, row);
  return row;
}

/**
 * The agent's candidate is stored: generating -> evaluating, and its `evaluate` job is enqueued on the session's
 * device (`session` is the attempt's, its row locked by the caller). Null, and no job, when a stop or failure came
 * first.
 */
export async function markEvaluating(
  ctx: AppContext,
  tx: Sql,
  session: AttemptSession,
  attemptId: string,
  result: {
    source: string;
    explanation: string;
    language: string;
    agent_meta?: Record<string, unknown> | null | undefined;
    usage?: { input_tokens: number; output_tokens: number } | null | undefined;
  },
): Promise<AttemptRow | null> {
  const [row] = await transition(
    tx,
    [attemptId],
    'evaluating',
    'source = $2, explanation = $3, language = $4, agent_meta = $5, token_usage = $6',
    [
      result.source,
      result.explanation,
      result.language,
      result.agent_meta ? JSON.stringify(result.agent_meta) : null,
      result.usage ? JSON.stringify(result.usage) : null,
    ],
  );
  if (!row) return null;
  if (row.session_id !== session.id) throw new Error(`attempt ${attemptId} is not of session ${session.id}`);
  await announce(ctx, tx, row);
  await enqueueEvaluate(ctx, tx, session, row);
  return row;
}

/** A runner's verdict is stored: evaluating -> completed (whatever the verdict). Null for a late report. */
export async function markCompleted(
  ctx: AppContext,
  tx: Sql,
  attemptId: string,
  state: EvaluationState,
): Promise<AttemptRow | null> {
  const [row] = await transition(
    tx,
    [attemptId],
    'completed',
    'evaluation_state = $2, runner_seconds = $3, finished_at = now()',
    [JSON.stringify(state), state.runner_seconds],
  );
  if (row) await announce(ctx, tx, row);
  return row ?? null;
}

/** No evaluation could be made: an unfinished attempt fails with its reason. Null when it had already ended. */
export async function markFailed(
  ctx: AppContext,
  tx: Sql,
  attemptId: string,
  error: string,
): Promise<AttemptRow | null> {
  const [row] = await transition(tx, [attemptId], 'failed', 'error = $2, finished_at = now()', [error]);
  if (row) await announce(ctx, tx, row);
  return row ?? null;
}

/** A user's stop: the unfinished ones among `attemptIds` become stopped; the rows that did. */
export async function markStopped(ctx: AppContext, tx: Sql, attemptIds: string[]): Promise<AttemptRow[]> {
  const rows = await transition(tx, attemptIds, 'stopped', 'finished_at = now()');
  for (const row of rows) await announce(ctx, tx, row);
  return rows;
}
