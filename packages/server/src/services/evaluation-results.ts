// Where evaluation outcomes land, whoever ran them (a standalone runner over HTTP or the in-process one), and what dead jobs mean.
import type { EvaluationJobPayload, EvaluationState } from '@kernelforge/sdk';
import { completeJob, failJob, lockLeasedJob } from '../jobs/queue.js';
import type { Job } from '../jobs/types.js';
import { markCompleted, markFailed } from '../sessions/attempts.js';
import { settleDeadGeneration } from '../sessions/generate-worker.js';
import { continueInstruction } from '../sessions/loop.js';
import { findSession } from '../sessions/queries.js';
import { failSweepEvaluation, recordSweepEvaluation } from '../sessions/sweep-runs.js';
import type { AppContext } from '../context.js';
import type { Sql } from '../db/sql.js';

export type ResultOutcome = 'recorded' | 'retry' | 'dead' | 'lost';

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

/**
 * Records a runner's report for a leased evaluate job. `lost` means the lease was no longer the caller's
 * (it expired and the job went to someone else, or it was cancelled): the report is discarded.
 */
export async function recordEvaluation(
  ctx: AppContext,
  jobId: string,
  leaseToken: string,
  report: { state: EvaluationState } | { error: string },
): Promise<ResultOutcome> {
  // Compile logs and candidate output are arbitrary bytes; Postgres text and jsonb cannot hold NUL.
  report = withoutNul(report);
  if ('error' in report) {
    const { outcome, job } = await failJob(ctx.db, jobId, leaseToken, report.error, { retryable: true });
    if (outcome === 'dead' && job) await settleDeadJob(ctx, job);
    return outcome;
  }
  return ctx.db.transaction(async (tx) => {
    const peek = await tx.query<{ session_id: string | null }>('SELECT session_id FROM jobs WHERE id = $1', [jobId]);
    // Lock order everywhere: session, then job, then attempt (stop takes the same order).
    if (peek[0]?.session_id) await findSession(tx, peek[0].session_id, { lock: true });
    const job = await lockLeasedJob(tx, jobId, leaseToken);
    if (!job) return 'lost';
    const payload = job.payload as unknown as EvaluationJobPayload;
    if (payload.kind === 'attempt') await recordAttemptEvaluation(ctx, tx, payload.target_id, report.state);
    else if (payload.kind === 'sweep') await recordSweepEvaluation(tx, payload.target_id, redactRanked(report.state));
    else await recordSubmissionEvaluation(tx, payload.target_id, report.state);
    await completeJob(tx, jobId, leaseToken);
    return 'recorded';
  });
}

async function recordAttemptEvaluation(
  ctx: AppContext,
  tx: Sql,
  attemptId: string,
  state: EvaluationState,
): Promise<void> {
  const attempt = await markCompleted(ctx, tx, attemptId, state);
  if (!attempt) return;
  await tx.query('UPDATE agent_sessions SET runner_seconds = runner_seconds + $2, updated_at = now() WHERE id = $1', [
    attempt.session_id,
    state.runner_seconds,
  ]);
  await continueInstruction(ctx, tx, attempt.session_id, attempt.instruction_id);
}

async function recordSubmissionEvaluation(tx: Sql, submissionId: string, state: EvaluationState): Promise<void> {
  const bench = state.verdict === 'accepted' ? state.benchmarking_result : null;
  await tx.query(
    `UPDATE submissions SET status = 'completed', verdict = $2, time_ms = $3, speedup = $4, flagged_for_review = $5,
       evaluation_state = $6, finished_at = now()
     WHERE id = $1 AND status IN ('queued', 'evaluating')`,
    [
      submissionId,
      state.verdict,
      bench?.optimized_time ?? null,
      bench?.speedup ?? null,
      bench?.flagged_for_review ?? false,
      JSON.stringify(redactRanked(state)),
    ],
  );
}

/** A job out of tries: its attempt or submission fails with the reason, and the session loop moves on. */
export async function settleDeadJob(ctx: AppContext, job: Job): Promise<void> {
  if (job.kind === 'generate') return settleDeadGeneration(ctx, job);
  const reason = job.dead_reason ?? job.last_error ?? 'failed';
  await ctx.db.transaction(async (tx) => {
    if (job.session_id) await findSession(tx, job.session_id, { lock: true });
    const payload = job.payload as unknown as EvaluationJobPayload;
    if (payload.kind === 'submission') {
      await tx.query(
        `UPDATE submissions SET status = 'failed', error = $2, finished_at = now() WHERE id = $1 AND status IN ('queued', 'evaluating')`,
        [payload.target_id, `Evaluation failed: ${reason}`],
      );
      return;
    }
    if (payload.kind === 'sweep') return failSweepEvaluation(tx, payload.target_id, reason);
    const attempt = await markFailed(ctx, tx, payload.target_id, `Evaluation failed: ${reason}`);
    // The runner failing is not the candidate's fault: the instruction goes on with its next attempt.
    if (attempt) await continueInstruction(ctx, tx, attempt.session_id, attempt.instruction_id);
  });
}

/** Every NUL in the strings (keys included) of a JSON value replaced by U+FFFD, so untrusted output can be stored. */
export function withoutNul<T>(value: T): T {
  if (typeof value === 'string') return (value.includes('\u0000') ? value.replaceAll('\u0000', '\uFFFD') : value) as T;
  if (Array.isArray(value)) return value.map(withoutNul) as T;
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [withoutNul(k), withoutNul(v)])) as T;
  return value;
}
