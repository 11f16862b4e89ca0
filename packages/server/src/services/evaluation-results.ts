// Where evaluation outcomes land, whoever ran them (a standalone runner over HTTP or the in-process one), and what dead jobs mean.
import type { EvaluationJobPayload, EvaluationState } from '@kernelforge/sdk';
import { claimJob, completeJob, failJob, lockLeasedJob } from '../jobs/queue.js';
import { noteDead, noteEvaluation, noteRetry } from '../jobs/telemetry.js';
import type { ClaimOptions, Job } from '../jobs/types.js';
import { markCompleted, markFailed } from '../sessions/attempts.js';
import { settleDeadGeneration } from '../sessions/generate-worker.js';
import { continueInstruction } from '../sessions/instruction-chain.js';
import { findSession } from '../sessions/queries.js';
import { failSweepEvaluation, recordSweepEvaluation } from '../sessions/sweep-runs.js';
import { genericDeviceId } from '@kernelforge/runner';
import type { AppContext } from '../context.js';
import type { Sql } from '../db/sql.js';
import {
  markSubmissionCompleted,
  markSubmissionEvaluating,
  markSubmissionFailed,
  markSubmissionQueued,
  redactRanked,
} from './submission-lifecycle.js';

export type ResultOutcome = 'recorded' | 'retry' | 'dead' | 'lost';

/**
 * Leases the next evaluate job for these devices, for the in-process runner and the runner API alike: a
 * submission becomes `evaluating` in the same transaction (an attempt already is, from the moment its source
 * was stored).
 */
export async function claimEvaluation(ctx: AppContext, opts: Omit<ClaimOptions, 'kinds'>): Promise<Job | null> {
  // A runner serving `cpu-x86_64-avx512-...` also takes jobs queued under the generic `cpu-x86_64` (queued before
  // devices were named by ISA class and model), which would otherwise wait for ever; unless some runner still
  // announces `cpu-x86_64` itself (an older runner): those jobs are its.
  const generic = (opts.devices ?? []).map(genericDeviceId).filter((x): x is string => x !== undefined);
  let devices = opts.devices;
  if (generic.length > 0) {
    const announced = new Set((await ctx.devices.list()).filter((d) => d.available).map((d) => d.id));
    const orphaned = generic.filter((g) => !announced.has(g));
    if (orphaned.length > 0) devices = [...new Set([...(opts.devices ?? []), ...orphaned])];
  }
  return ctx.db.transaction(async (tx) => {
    const job = await claimJob(tx, { ...opts, ...(devices ? { devices } : {}), kinds: ['evaluate'] });
    const payload = job?.payload as unknown as EvaluationJobPayload | undefined;
    if (payload?.kind === 'submission') await markSubmissionEvaluating(tx, payload.target_id);
    return job;
  });
}

/** Evaluate jobs that went back to the queue (a retryable error, a lapsed lease): their submissions wait again. */
export async function settleRequeuedJobs(sql: Sql, jobs: Job[]): Promise<void> {
  for (const job of jobs) {
    const payload = job.payload as unknown as EvaluationJobPayload;
    if (job.kind === 'evaluate' && payload.kind === 'submission')
      await markSubmissionQueued(sql, payload.target_id, job.last_error);
  }
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
  // `redacted` says how a reader sees a stored result (result-visibility.ts), never what a runner reports.
  if ('state' in report) {
    const { redacted: _readerOnly, ...state } = report.state;
    report = { state };
  }
  if ('error' in report) {
    const error = report.error;
    const { outcome, job } = await ctx.db.transaction(async (tx) => {
      const failed = await failJob(tx, jobId, leaseToken, error, { retryable: true });
      if (failed.outcome === 'retry' && failed.job) await settleRequeuedJobs(tx, [failed.job]);
      return failed;
    });
    if (job) noteEvaluation(ctx, job, 'error');
    if (outcome === 'retry' && job) noteRetry(ctx, job, error);
    if (outcome === 'dead' && job) {
      noteDead(ctx, job);
      await settleDeadJob(ctx, job);
    }
    return outcome;
  }
  const state = report.state;
  const landed: { job?: Job } = {};
  const outcome = await ctx.db.transaction(async (tx) => {
    const peek = await tx.query<{ session_id: string | null }>('SELECT session_id FROM jobs WHERE id = $1', [jobId]);
    // Lock order everywhere: session, then job, then attempt (stop takes the same order).
    if (peek[0]?.session_id) await findSession(tx, peek[0].session_id, { lock: true });
    const job = await lockLeasedJob(tx, jobId, leaseToken);
    if (!job) return 'lost';
    const payload = job.payload as unknown as EvaluationJobPayload;
    if (payload.kind === 'attempt') await recordAttemptEvaluation(ctx, tx, payload.target_id, report.state);
    else if (payload.kind === 'sweep') await recordSweepEvaluation(tx, payload.target_id, redactRanked(report.state));
    else await markSubmissionCompleted(tx, payload.target_id, report.state);
    await completeJob(tx, jobId, leaseToken);
    landed.job = job;
    return 'recorded' as const;
  });
  if (landed.job) noteEvaluation(ctx, landed.job, state.verdict);
  return outcome;
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

/** A job out of tries: its attempt or submission fails with the reason, and the session loop moves on. */
export async function settleDeadJob(ctx: AppContext, job: Job): Promise<void> {
  if (job.kind === 'generate') return settleDeadGeneration(ctx, job);
  const reason = job.dead_reason ?? job.last_error ?? 'failed';
  await ctx.db.transaction(async (tx) => {
    if (job.session_id) await findSession(tx, job.session_id, { lock: true });
    const payload = job.payload as unknown as EvaluationJobPayload;
    if (payload.kind === 'submission') {
      await markSubmissionFailed(tx, payload.target_id, `Evaluation failed: ${reason}`);
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
