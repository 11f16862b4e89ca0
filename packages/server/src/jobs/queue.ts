// The job queue, and the one owner of a job's lifecycle: enqueue, claim with a lease (FOR UPDATE SKIP LOCKED),
// heartbeat, complete, retry with backoff, dead-letter, reap lapsed leases, cancel. No other file writes `jobs.status`.
import { randomUUID } from 'node:crypto';
import type { EvaluationProgress } from '@kernelforge/sdk';
import type { Sql } from '../db/sql.js';
import { announceJob } from './signals.js';
import type { ClaimOptions, EnqueueOptions, Job, JobStatus } from './types.js';

/**
 * The legal moves, as the statuses each target may be reached from (queued -> leased -> done | dead, with
 * leased -> queued for a retry and queued | leased -> cancelled). Each function below makes one of them with an
 * UPDATE guarded by the status (`movableTo`: the table itself, or narrower) and, for a holder's moves, its lease token, so a stale holder's late write is a
 * no-op. Jobs publish no session events; `enqueueJob` announces a new job to claimers (NOTIFY), and what a job's
 * move means for its attempt or submission is settled by its caller (domain/evaluation/results.ts,
 * domain/attempts/generate-worker.ts, domain/sessions/stop.ts).
 */
export const JOB_TRANSITIONS = {
  leased: ['queued'],
  done: ['leased'],
  queued: ['leased'],
  dead: ['leased'],
  cancelled: ['queued', 'leased'],
} as const satisfies Record<JobStatus, readonly JobStatus[]>;

/** The guard of every move to `to` below: the row's status is one JOB_TRANSITIONS allows it from. */
function movableTo(to: JobStatus, column = 'status'): string {
  return `${column} IN (${JOB_TRANSITIONS[to].map((s) => `'${s}'`).join(', ')})`;
}

const JOB_COLUMNS =
  'id, kind, payload, device, status, attempts, max_attempts, lease_token, lease_expires_at, runner_id, last_error, dead_reason, session_id, leased_at';

/** Inserts a queued job; returns its id, or null when the dedupe key already exists. */
export async function enqueueJob(sql: Sql, opts: EnqueueOptions): Promise<string | null> {
  const rows = await sql.query<{ id: string }>(
    `INSERT INTO jobs (kind, payload, device, session_id, max_attempts, dedupe_key, run_after, priority, owner_id)
     VALUES ($1, $2, $3, $4, $5, $6, now() + make_interval(secs => $7), $8, $9)
     ON CONFLICT (dedupe_key) DO NOTHING
     RETURNING id`,
    [
      opts.kind,
      JSON.stringify(opts.payload),
      opts.device ?? null,
      opts.sessionId ?? null,
      opts.maxAttempts ?? 3,
      opts.dedupeKey ?? null,
      (opts.delayMs ?? 0) / 1000,
      opts.priority ?? 0,
      opts.ownerId ?? null,
    ],
  );
  const id = rows[0]?.id ?? null;
  if (id) await announceJob(sql, opts.kind);
  return id;
}

/**
 * Fair share: runner time a user's jobs (of the kinds, and on the devices, being claimed) took in this window counts
 * against them when a claim picks the next job: the runs that ended in it, and the time so far of the ones running.
 * Ten minutes holds several long evaluations (a candidate that sleeps inside its call holds a runner for minutes), so a
 * user who just had the runner waits behind one who did not, yet an afternoon's work is forgotten soon after.
 */
export const FAIR_SHARE_WINDOW_SECONDS = 600;

/**
 * While another user with fewer jobs running has one waiting, a user with this many running (of the kinds, on the
 * devices, being claimed) gets no more: with several runners on a device, one user cannot hold two while someone
 * else waits, whatever their runner time.
 */
export const MAX_RUNNING_WHILE_OTHERS_WAIT = 1;

/** Seconds the current lease of a leased row has run (0 for a row leased before leased_at was recorded). */
const LEASE_SO_FAR = 'greatest(0, extract(epoch FROM now() - coalesce(leased_at, now()))::double precision)';

/** A lease ends (done, dead, back to the queue, cancelled): its time joins the job's run time (fair share). */
const END_LEASE = `run_seconds = run_seconds + ${LEASE_SO_FAR}, lease_ended_at = now()`;

/**
 * Leases a ready job of the given kinds (and devices). Order (docs/evaluation.md, "Who runs next"): first the users
 * below MAX_RUNNING_WHILE_OTHERS_WAIT jobs running, then the user who used the least runner time in the last
 * FAIR_SHARE_WINDOW_SECONDS (fair share: one user's long or many jobs do not hold a shared runner while someone else
 * waits), then the fewest running, then the highest priority, then the oldest. SKIP LOCKED lets many claimers race
 * without blocking one another; the lease token makes a stale holder's later writes no-ops.
 */
export async function claimJob(sql: Sql, opts: ClaimOptions): Promise<Job | null> {
  const params: unknown[] = [
    opts.kinds,
    randomUUID(),
    opts.runnerId,
    opts.leaseSeconds,
    FAIR_SHARE_WINDOW_SECONDS,
    MAX_RUNNING_WHILE_OTHERS_WAIT,
  ];
  let deviceFilter = '';
  let usageDeviceFilter = '';
  if (opts.devices) {
    params.push(opts.devices);
    deviceFilter = `AND j.device = ANY($${params.length}::text[])`;
    usageDeviceFilter = `AND device = ANY($${params.length}::text[])`;
  }
  const recent = 'lease_ended_at > now() - make_interval(secs => $5)';
  const rows = await sql.query<Job>(
    `UPDATE jobs SET progress = NULL, status = 'leased', attempts = attempts + 1, lease_token = $2, runner_id = $3,
       lease_expires_at = now() + make_interval(secs => $4), leased_at = now(), updated_at = now()
     WHERE id = (
       WITH recent AS (
         SELECT owner_id, 1 AS running,
           least($5::double precision, ${LEASE_SO_FAR}) + CASE WHEN ${recent} THEN run_seconds ELSE 0 END AS seconds
         FROM jobs WHERE status = 'leased' AND kind = ANY($1::text[]) AND owner_id IS NOT NULL ${usageDeviceFilter}
         UNION ALL
         SELECT owner_id, 0, run_seconds FROM jobs
         WHERE status <> 'leased' AND ${recent} AND kind = ANY($1::text[]) AND owner_id IS NOT NULL ${usageDeviceFilter}),
       usage AS (SELECT owner_id, sum(running) AS running, sum(seconds) AS seconds FROM recent GROUP BY owner_id)
       SELECT j.id FROM jobs j LEFT JOIN usage u ON u.owner_id = j.owner_id
       WHERE ${movableTo('leased', 'j.status')} AND j.kind = ANY($1::text[]) AND j.run_after <= now() ${deviceFilter}
       ORDER BY coalesce(u.running, 0) >= $6, coalesce(u.seconds, 0), coalesce(u.running, 0), j.priority DESC,
         j.run_after, j.created_at
       LIMIT 1
       FOR UPDATE OF j SKIP LOCKED)
     RETURNING ${JOB_COLUMNS}`,
    params,
  );
  return rows[0] ?? null;
}

/**
 * Extends a lease; null when the lease was lost (expired and requeued, cancelled or finished). `progress`, where
 * given (an evaluation's stage, case and samples, already validated), replaces the job's; absent, it is kept.
 */
export async function heartbeatJob(
  sql: Sql,
  id: string,
  leaseToken: string,
  leaseSeconds: number,
  progress?: EvaluationProgress,
): Promise<Date | null> {
  const rows = await sql.query<{ lease_expires_at: Date }>(
    `UPDATE jobs SET lease_expires_at = now() + make_interval(secs => $3), updated_at = now(),
       progress = coalesce($4::jsonb, progress)
     WHERE id = $1 AND lease_token = $2 AND status = 'leased'
     RETURNING lease_expires_at`,
    [id, leaseToken, leaseSeconds, progress ? JSON.stringify(progress) : null],
  );
  const at = rows[0]?.lease_expires_at;
  return at ? new Date(at) : null;
}

/** Loads a job only while the caller still holds its lease, locking the row for the caller's transaction. */
export async function lockLeasedJob(sql: Sql, id: string, leaseToken: string): Promise<Job | null> {
  const rows = await sql.query<Job>(
    `SELECT ${JOB_COLUMNS} FROM jobs WHERE id = $1 AND lease_token = $2 AND status = 'leased' FOR UPDATE`,
    [id, leaseToken],
  );
  return rows[0] ?? null;
}

/** Marks a leased job done; false when the lease was lost meanwhile (the caller must then discard its result). */
export async function completeJob(sql: Sql, id: string, leaseToken: string): Promise<boolean> {
  const rows = await sql.query(
    `UPDATE jobs SET progress = NULL, status = 'done', lease_token = NULL, lease_expires_at = NULL, updated_at = now(),
       ${END_LEASE}
     WHERE id = $1 AND lease_token = $2 AND ${movableTo('done')} RETURNING id`,
    [id, leaseToken],
  );
  return rows.length > 0;
}

/** Exponential backoff with jitter: 1 s, 2 s, 4 s ... capped at 60 s. */
export function backoffMs(attempts: number): number {
  const base = Math.min(60_000, 1000 * 2 ** Math.max(0, attempts - 1));
  return Math.round(base * (0.75 + Math.random() * 0.5));
}

export type FailOutcome = 'retry' | 'dead' | 'lost';

/**
 * Records a failed run. A retryable failure with attempts left goes back to the queue after a backoff;
 * otherwise the job is dead with its reason. 'lost' means the caller no longer held the lease.
 */
export async function failJob(
  sql: Sql,
  id: string,
  leaseToken: string,
  error: string,
  opts: { retryable: boolean },
): Promise<{ outcome: FailOutcome; job: Job | null }> {
  return sql.transaction(async (tx) => {
    const job = await lockLeasedJob(tx, id, leaseToken);
    if (!job) return { outcome: 'lost', job: null };
    if (opts.retryable && job.attempts < job.max_attempts) {
      await tx.query(
        `UPDATE jobs SET progress = NULL, status = 'queued', lease_token = NULL, lease_expires_at = NULL, runner_id = NULL,
           last_error = $2, run_after = now() + make_interval(secs => $3), updated_at = now(), ${END_LEASE}
         WHERE id = $1 AND ${movableTo('queued')}`,
        [id, error, backoffMs(job.attempts) / 1000],
      );
      return { outcome: 'retry', job };
    }
    const reason = opts.retryable ? `${error} (gave up after ${job.attempts} tries)` : error;
    await tx.query(
      `UPDATE jobs SET progress = NULL, status = 'dead', lease_token = NULL, lease_expires_at = NULL, last_error = $2,
         dead_reason = $3, updated_at = now(), ${END_LEASE} WHERE id = $1 AND ${movableTo('dead')}`,
      [id, error, reason],
    );
    return { outcome: 'dead', job: { ...job, status: 'dead', dead_reason: reason } };
  });
}

/**
 * A stop's cancellations for these attempts: their generate jobs, queued or leased (a generation in flight is
 * abandoned; its worker loses the lease at the next heartbeat), and their evaluate jobs still queued (one a runner
 * already holds is left to finish, so a measurement under way is not thrown away). Returns the cancelled rows.
 */
export async function cancelAttemptJobs(sql: Sql, attemptIds: string[]): Promise<Job[]> {
  if (attemptIds.length === 0) return [];
  return sql.query<Job>(
    `UPDATE jobs SET progress = NULL, status = 'cancelled', lease_token = NULL, lease_expires_at = NULL, updated_at = now(),
       run_seconds = CASE WHEN status = 'leased' THEN run_seconds + ${LEASE_SO_FAR} ELSE run_seconds END,
       lease_ended_at = CASE WHEN status = 'leased' THEN now() ELSE lease_ended_at END
     WHERE (kind = 'generate' AND ${movableTo('cancelled')} AND payload->>'attempt_id' = ANY($1::text[]))
        OR (kind = 'evaluate' AND status = 'queued' AND payload->>'target_id' = ANY($1::text[]))
     RETURNING ${JOB_COLUMNS}`,
    [attemptIds],
  );
}

/** An administrator's cancel of one job still in flight, queued or leased (a runner's late result for it is then
    refused: its lease token is gone); its runner time so far is counted as a stop's is. Null once it is not in flight. */
export async function cancelJobInFlight(sql: Sql, id: string, reason: string): Promise<Job | null> {
  const [job] = await sql.query<Job>(
    `UPDATE jobs SET progress = NULL, status = 'cancelled', lease_token = NULL, lease_expires_at = NULL, last_error = $2,
       updated_at = now(),
       run_seconds = CASE WHEN status = 'leased' THEN run_seconds + ${LEASE_SO_FAR} ELSE run_seconds END,
       lease_ended_at = CASE WHEN status = 'leased' THEN now() ELSE lease_ended_at END
     WHERE id = $1 AND ${movableTo('cancelled')}
     RETURNING ${JOB_COLUMNS}`,
    [id, reason],
  );
  return job ?? null;
}

/** A deleted account's work: every job of its own still in flight, queued or leased (a runner's late result is then
    refused: its lease token is gone), and those of its sessions (older jobs name no owner). Returns the cancelled rows. */
export async function cancelOwnerJobs(sql: Sql, ownerId: string, reason: string): Promise<Job[]> {
  return sql.query<Job>(
    `UPDATE jobs SET progress = NULL, status = 'cancelled', lease_token = NULL, lease_expires_at = NULL, last_error = $2,
       updated_at = now(),
       run_seconds = CASE WHEN status = 'leased' THEN run_seconds + ${LEASE_SO_FAR} ELSE run_seconds END,
       lease_ended_at = CASE WHEN status = 'leased' THEN now() ELSE lease_ended_at END
     WHERE ${movableTo('cancelled')}
       AND (owner_id = $1 OR session_id IN (SELECT id FROM agent_sessions WHERE owner_id = $1))
     RETURNING ${JOB_COLUMNS}`,
    [ownerId, reason],
  );
}

/** Cancels the queued evaluate jobs with these dedupe keys (a sweep's ranked re-runs, when the sweep stops); a job a
    runner already holds is left to finish. */
export async function cancelQueuedEvaluations(sql: Sql, dedupeKeys: string[]): Promise<Job[]> {
  if (dedupeKeys.length === 0) return [];
  return sql.query<Job>(
    `UPDATE jobs SET progress = NULL, status = 'cancelled', updated_at = now()
     WHERE kind = 'evaluate' AND status = 'queued' AND dedupe_key = ANY($1::text[])
     RETURNING ${JOB_COLUMNS}`,
    [dedupeKeys],
  );
}

/** HH:MM:SS UTC of a timestamp column, for messages a user reads. */
const clock = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'HH24:MI:SS') || ' UTC'`;

/**
 * Why a reaped job left its holder, as the user reads it (the attempt's or submission's notice while it waits
 * again). Evaluated in SET, so it sees the row before the update.
 */
const REAPED_WHY = `CASE WHEN lease_expires_at < now()
    THEN 'its lease ran out at ' || ${clock('lease_expires_at')} || ' (no heartbeat since ' || ${clock('updated_at')} || ')'
    ELSE 'its runner stopped answering at ' || ${clock('updated_at')} END`;

/** A reaped job's cause, read back from its last_error (see REAPED_WHY). */
export function reapCause(job: Job): 'runner_silent' | 'lease_expired' {
  return job.last_error?.startsWith('its runner stopped answering') ? 'runner_silent' : 'lease_expired';
}

/**
 * The lease reaper's move: expired leases with tries left go back to the queue, the rest are dead. Returns both,
 * so the caller can settle what they were for (a submission back to queued, an attempt failed).
 *
 * With `silentSeconds`, an evaluate job is also reaped early, before its lease runs out, when neither it nor its
 * runner was heard of for that long: no heartbeat of the job and no claim, heartbeat or result from the runner (a
 * runner that was killed). Each reaped row's last_error says which, with the time (`reapCause`).
 */
export async function reapExpiredLeases(
  sql: Sql,
  opts: { silentSeconds?: number | null } = {},
): Promise<{ requeued: Job[]; dead: Job[]; holders: Map<string, string | null> }> {
  const silent = opts.silentSeconds ?? null;
  // Requeued or dead alike, a reaped job moves from `leased` (JOB_TRANSITIONS.queued and .dead).
  const due = `${movableTo('dead', 'jobs.status')} AND (jobs.lease_expires_at < now() OR ($1::double precision IS NOT NULL
      AND jobs.kind = 'evaluate' AND jobs.updated_at < now() - make_interval(secs => $1::double precision)
      AND NOT EXISTS (SELECT 1 FROM runners r WHERE r.id::text = jobs.runner_id
        AND r.last_seen_at > now() - make_interval(secs => $1::double precision))))`;
  const columns = JOB_COLUMNS.split(', ')
    .map((c) => `jobs.${c}`)
    .join(', ');
  // The holder is read before the update (a re-queued row forgets it), for the log.
  const reap = (set: string, tries: string) =>
    sql.query<Job & { holder: string | null }>(
      `WITH old AS (SELECT id, runner_id FROM jobs WHERE ${due} AND ${tries} FOR UPDATE)
       UPDATE jobs SET ${set} FROM old WHERE jobs.id = old.id AND ${due} AND ${tries}
       RETURNING ${columns}, old.runner_id AS holder`,
      [silent],
    );
  const requeued = await reap(
    `progress = NULL, status = 'queued', lease_token = NULL, lease_expires_at = NULL, runner_id = NULL,
       last_error = ${REAPED_WHY} || '; re-queued (try ' || attempts || ' of ' || max_attempts || ' ended)',
       run_after = now(), updated_at = now(), ${END_LEASE}`,
    'jobs.attempts < jobs.max_attempts',
  );
  const dead = await reap(
    `progress = NULL, status = 'dead', lease_token = NULL, lease_expires_at = NULL, last_error = ${REAPED_WHY},
       dead_reason = 'the runner holding it stopped responding ' || attempts || ' times (the last time: ' || ${REAPED_WHY} || ')',
       updated_at = now(), ${END_LEASE}`,
    'jobs.attempts >= jobs.max_attempts',
  );
  const holders = new Map([...requeued, ...dead].map((j) => [j.id, j.holder] as const));
  const strip = ({ holder: _h, ...job }: Job & { holder: string | null }): Job => job;
  return { requeued: requeued.map(strip), dead: dead.map(strip), holders };
}

/** Queue depth by kind and status, for /metrics and tests. */
export async function countJobs(sql: Sql): Promise<{ kind: string; status: string; count: number }[]> {
  return sql.query(`SELECT kind, status, count(*)::int AS count FROM jobs GROUP BY kind, status ORDER BY kind, status`);
}
