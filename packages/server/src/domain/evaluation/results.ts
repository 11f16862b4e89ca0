// Where evaluation outcomes land, whoever ran them (a standalone runner over HTTP or the in-process one), and what dead
// jobs mean: every claim, requeue, result and dead job is routed to its target through the registry (registry.ts).
import type { EvaluationState } from '@kernelforge/sdk';
import { claimJob, completeJob, failJob, lockLeasedJob } from '../../jobs/queue.js';
import { noteDead, noteEvaluation, noteRetry } from '../../jobs/telemetry.js';
import type { ClaimOptions, Job } from '../../jobs/types.js';
import { settleDeadGeneration } from '../attempts/generate-worker.js';
import { findSession } from '../sessions/queries.js';
import { genericDeviceId } from '@kernelforge/runner';
import type { AppContext } from '../../context.js';
import type { Sql } from '../../db/sql.js';
import { targetOf } from './registry.js';

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
    if (job) {
      const { target, id } = targetOf(job);
      await target.onClaim?.(tx, id);
    }
    return job;
  });
}

/** Evaluate jobs that went back to the queue (a retryable error, a lapsed lease): their submissions wait again. */
export async function settleRequeuedJobs(sql: Sql, jobs: Job[]): Promise<void> {
  for (const job of jobs) {
    if (job.kind !== 'evaluate') continue;
    const { target, id } = targetOf(job);
    await target.onRequeue?.(sql, id, job.last_error);
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
    const { target, id } = targetOf(job);
    await target.onResult(ctx, tx, id, report.state);
    await completeJob(tx, jobId, leaseToken);
    landed.job = job;
    return 'recorded' as const;
  });
  if (landed.job) {
    noteEvaluation(ctx, landed.job, state.verdict);
    const { target, id } = targetOf(landed.job);
    target.afterOutcome?.(ctx, id);
  }
  return outcome;
}

/** A job out of tries: a generation's attempt fails (generate-worker.ts); an evaluation's target says what it means. */
export async function settleDeadJob(ctx: AppContext, job: Job): Promise<void> {
  if (job.kind === 'generate') return settleDeadGeneration(ctx, job);
  const reason = job.dead_reason ?? job.last_error ?? 'failed';
  await ctx.db.transaction(async (tx) => {
    if (job.session_id) await findSession(tx, job.session_id, { lock: true });
    const { target, id } = targetOf(job);
    await target.onDead(ctx, tx, id, reason);
  });
  const { target, id } = targetOf(job);
  target.afterOutcome?.(ctx, id);
}

/** Every NUL in the strings (keys included) of a JSON value replaced by U+FFFD, so untrusted output can be stored. */
export function withoutNul<T>(value: T): T {
  if (typeof value === 'string') return (value.includes('\u0000') ? value.replaceAll('\u0000', '\uFFFD') : value) as T;
  if (Array.isArray(value)) return value.map(withoutNul) as T;
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [withoutNul(k), withoutNul(v)])) as T;
  return value;
}
