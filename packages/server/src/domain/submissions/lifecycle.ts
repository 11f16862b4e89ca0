// The one owner of a submission's lifecycle: every write of `submissions.status` goes through here.
import type { EvaluationState, SubmissionPurpose, SubmissionStatus } from '@kernelforge/sdk';
import type { Sql } from '../../db/sql.js';
import { isUuid } from '../sessions/queries.js';

/**
 * The legal moves, as the statuses each target may be reached from (queued -> evaluating -> completed | failed).
 *
 * A submission mirrors its one evaluate job: `queued` while the job waits, `evaluating` while a runner (the
 * in-process one or a standalone one over the runner API) holds its lease, and final when a report is stored or
 * the job dies. Every transition is a guarded UPDATE; an illegal one changes nothing and returns null, because
 * each illegal case is an expected race:
 * - evaluating from anything but queued: a claim of a job whose submission already ended (a job requeued by a
 *   lapsed lease after its result was stored cannot happen, but the guard costs nothing).
 * - queued from anything but evaluating: the job was requeued (a retryable runner error, a lapsed lease) after
 *   the submission ended.
 * - completed / failed from a final status: the outcome stands. They are reachable from `queued` too: a job
 *   leased before this owner set `evaluating` on claims (an older server) still reports into its submission.
 * Creating a submission (`insertSubmission`) writes `queued`.
 *
 * Submissions publish no events: no stream carries them (the web and the CLI poll
 * `GET /leaderboard/submission/{id}`). Should one be added, it is published here, once per transition.
 */
export const SUBMISSION_TRANSITIONS = {
  evaluating: ['queued'],
  queued: ['evaluating'],
  completed: ['queued', 'evaluating'],
  failed: ['queued', 'evaluating'],
} as const satisfies Record<SubmissionStatus, readonly SubmissionStatus[]>;

export function canTransitionSubmission(from: string, to: keyof typeof SUBMISSION_TRANSITIONS): boolean {
  return (SUBMISSION_TRANSITIONS[to] as readonly string[]).includes(from);
}

/** One guarded UPDATE to `to`; the id when the row moved, else null. */
async function transition(
  tx: Sql,
  id: string,
  to: keyof typeof SUBMISSION_TRANSITIONS,
  set = '',
  params: unknown[] = [],
): Promise<string | null> {
  if (!isUuid(id)) return null;
  const from = SUBMISSION_TRANSITIONS[to];
  const rows = await tx.query<{ id: string }>(
    `UPDATE submissions SET status = '${to}'${set ? `, ${set}` : ''}
     WHERE id = $1 AND status IN (${from.map((s) => `'${s}'`).join(', ')})
     RETURNING id`,
    [id, ...params],
  );
  return rows[0]?.id ?? null;
}

/** A new submission, `queued` for its evaluate job (which the caller enqueues in the same transaction). */
export async function insertSubmission(
  tx: Sql,
  values: {
    userId: string;
    problemName: string;
    device: string;
    language: string;
    source: string;
    sessionId: string | null;
    attemptId: string | null;
    purpose?: SubmissionPurpose | undefined;
  },
): Promise<string> {
  const rows = await tx.query<{ id: string }>(
    `INSERT INTO submissions (user_id, problem_name, device, language, source, session_id, attempt_id, status, purpose)
     VALUES ($1, $2, $3, $4, $5, $6, $7, 'queued', $8) RETURNING id`,
    [
      values.userId,
      values.problemName,
      values.device,
      values.language,
      values.source,
      values.sessionId,
      values.attemptId,
      values.purpose ?? 'submit',
    ],
  );
  return (rows[0] as { id: string }).id;
}

/** A runner claimed the submission's job: queued -> evaluating (a note of why it waited again is done with). */
export function markSubmissionEvaluating(tx: Sql, id: string): Promise<string | null> {
  return transition(tx, id, 'evaluating', 'error = NULL');
}

/**
 * The job went back to the queue (a retryable runner error, a lapsed lease, a runner gone silent): evaluating ->
 * queued, with `why` in its error while it waits (its owner reads why it is queued again).
 */
export function markSubmissionQueued(tx: Sql, id: string, why?: string | null): Promise<string | null> {
  return why
    ? transition(tx, id, 'queued', 'error = $2', [`Waiting to run again: ${why}`])
    : transition(tx, id, 'queued');
}

/** A runner's verdict is stored (redacted, as ranked results are): -> completed, whatever the verdict. */
export function markSubmissionCompleted(tx: Sql, id: string, state: EvaluationState): Promise<string | null> {
  const bench = state.verdict === 'accepted' ? state.benchmarking_result : null;
  return transition(
    tx,
    id,
    'completed',
    'verdict = $2, time_ms = $3, speedup = $4, flagged_for_review = $5, evaluation_state = $6, finished_at = now()',
    [
      state.verdict,
      bench?.optimized_time ?? null,
      bench?.speedup ?? null,
      // A test run (benchmark mode) is never reviewed: only ranked results are flagged for a reviewer.
      state.mode === 'ranked' ? (bench?.flagged_for_review ?? false) : false,
      JSON.stringify(redactRanked(state)),
    ],
  );
}

/** No evaluation could be made (the job died): -> failed with its reason. */
export function markSubmissionFailed(tx: Sql, id: string, error: string): Promise<string | null> {
  return transition(tx, id, 'failed', 'error = $2, finished_at = now()', [error]);
}

/** Ranked results never show candidate output or hidden sizes (DESIGN 6.7). */
export function redactRanked(state: EvaluationState): EvaluationState {
  if (state.mode !== 'ranked') return state;
  const { stdout: _o, stderr: _e, ...rest } = state;
  return {
    ...rest,
    correctness: rest.correctness
      ? { ...rest.correctness, cases: rest.correctness.cases.map((c) => ({ ...c, sizes: {} })) }
      : null,
    ...(rest.benchmarking_result
      ? {
          benchmarking_result: {
            ...rest.benchmarking_result,
            cases: rest.benchmarking_result.cases.map((c) => ({ ...c, sizes: {} })),
          },
        }
      : {}),
  };
}
