// What an operator sees of the job queue's moves: a log line and a counter when a lease runs out or its runner goes
// silent, when a job is re-queued after an error, when one is dead-lettered; and the evaluations' durations.
import type { Metrics } from '../http/metrics.js';
import { EVALUATION_BUCKETS } from '../http/metrics.js';
import type { Logger } from '../log.js';
import { reapCause } from './queue.js';
import type { Job } from './types.js';

interface Telemetry {
  log: Logger;
  metrics: Metrics;
}

const KINDS = ['generate', 'evaluate'];

/** Declares the queue's counters and histogram (0 from the start, so rates work from the first scrape). */
export function defineJobMetrics(metrics: Metrics): void {
  metrics.defineCounter(
    'kforge_job_retries_total',
    'Jobs put back in the queue for another try, by kind and cause (error: the holder reported a failure; lease_expired; runner_silent: its runner stopped answering).',
    KINDS.flatMap((kind) => ['error', 'lease_expired', 'runner_silent'].map((cause) => ({ kind, cause }))),
  );
  metrics.defineCounter(
    'kforge_jobs_dead_total',
    'Jobs dead-lettered (out of tries, or a failure not worth retrying), by kind.',
    KINDS.map((kind) => ({ kind })),
  );
  metrics.defineCounter(
    'kforge_lease_expiries_total',
    'Leases taken back from their holder, by kind and cause (lease_expired, or runner_silent: re-leased early).',
    KINDS.flatMap((kind) => ['lease_expired', 'runner_silent'].map((cause) => ({ kind, cause }))),
  );
  metrics.defineHistogram(
    'kforge_evaluation_duration_seconds',
    'Evaluations from claim to result, by device and verdict (error: the runner reported an infrastructure error).',
    EVALUATION_BUCKETS,
  );
}

const jobFields = (job: Job) => ({
  job: job.id,
  kind: job.kind,
  device: job.device,
  try: job.attempts,
  max_tries: job.max_attempts,
});

/** The reaper took these leases back: re-queued or dead. */
export function noteReaped(t: Telemetry, requeued: Job[], dead: Job[], holders: Map<string, string | null>): void {
  for (const job of [...requeued, ...dead]) {
    const cause = reapCause(job);
    t.metrics.inc('kforge_lease_expiries_total', { kind: job.kind, cause });
    const fields = { ...jobFields(job), runner: holders.get(job.id) ?? null, cause, why: job.last_error };
    if (job.status === 'dead') continue;
    t.metrics.inc('kforge_job_retries_total', { kind: job.kind, cause });
    t.log.warn(
      cause === 'runner_silent' ? 'job re-leased early: its runner stopped answering' : 'lease expired; job re-queued',
      fields,
    );
  }
  for (const job of dead) noteDead(t, job, holders.get(job.id) ?? null);
}

/** A holder reported a failure and the job went back to the queue for another try. */
export function noteRetry(t: Telemetry, job: Job, error: string): void {
  t.metrics.inc('kforge_job_retries_total', { kind: job.kind, cause: 'error' });
  t.log.info('job re-queued after a failed try', {
    ...jobFields(job),
    runner: job.runner_id,
    error: error.slice(0, 500),
  });
}

/** A job is dead-lettered: its attempt or submission fails with the reason. */
export function noteDead(t: Telemetry, job: Job, runner: string | null = job.runner_id): void {
  t.metrics.inc('kforge_jobs_dead_total', { kind: job.kind });
  t.log.warn('job dead-lettered', { ...jobFields(job), runner, reason: (job.dead_reason ?? '').slice(0, 500) });
}

/** An evaluation's outcome arrived (a verdict, or `error` for an infrastructure failure), `leasedAt` its claim. */
export function noteEvaluation(t: Telemetry, job: Job, verdict: string): void {
  const leased = job.leased_at ? new Date(job.leased_at).getTime() : Number.NaN;
  const seconds = (Date.now() - leased) / 1000;
  if (!Number.isFinite(seconds) || seconds < 0) return;
  t.metrics.observeValue('kforge_evaluation_duration_seconds', { device: job.device ?? '', verdict }, seconds);
}
