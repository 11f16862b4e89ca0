// A superuser's view of the jobs in flight (whose, what for, where to look) and their Cancel: the work the job belongs
// to stops as its owner's Stop would stop it, and a job a runner holds is cancelled too (its late result is refused,
// as any result on a lost lease is).
import type { AppContext } from '../context.js';
import type { Sql } from '../db/sql.js';
import { ConflictError, NotFoundError } from '../errors.js';
import { cancelJobInFlight } from '../jobs/queue.js';
import { markStopped } from '../domain/attempts/lifecycle.js';
import { isUuid } from '../domain/sessions/queries.js';
import { stopSessionWork } from '../domain/sessions/stop.js';
import { markSubmissionFailed } from '../domain/submissions/lifecycle.js';
import { stopSweepProblemRun } from '../domain/sweeps/lifecycle.js';
import { stopSweep } from '../domain/sweeps/service.js';
import type { Caller } from '../domain/sessions/service.js';

export const CANCELLED_BY_ADMIN = 'Cancelled by an administrator';

export interface InFlightJob {
  id: string;
  kind: string;
  device: string | null;
  runner_id: string | null;
  attempts: number;
  lease_expires_at: string | null;
  created_at: string;
  owner: { id: string; email: string } | null;
  /** What the job works on, in words ("Attempt #3 of relu", "Submission on 19_ReLU", "Sweep re-run of 19_ReLU"). */
  target: string | null;
  /** The web page of that work. */
  href: string | null;
}

interface Row {
  id: string;
  kind: string;
  device: string | null;
  runner_id: string | null;
  attempts: number;
  lease_expires_at: Date | null;
  created_at: Date;
  owner_id: string | null;
  owner_email: string | null;
  session_id: string | null;
  payload_kind: string | null;
  target_id: string | null;
  attempt_id: string | null;
  attempt_number: number | null;
  session_label: string | null;
  problem_name: string | null;
  sweep_id: string | null;
}

/** The leased jobs, oldest first (100 at most), each with its owner and the page of what it works on. */
export async function jobsInFlight(sql: Sql): Promise<InFlightJob[]> {
  const rows = await sql.query<Row>(
    `SELECT j.id, j.kind, j.device, j.runner_id, j.attempts, j.lease_expires_at, j.created_at,
       j.owner_id, u.email AS owner_email, j.session_id, j.payload->>'kind' AS payload_kind,
       j.payload->>'target_id' AS target_id, j.payload->>'attempt_id' AS attempt_id,
       a.attempt_number, s.label AS session_label, j.payload->>'problem_name' AS problem_name, sp.sweep_id
     FROM jobs j
     LEFT JOIN users u ON u.id = j.owner_id
     LEFT JOIN generation_attempts a ON a.id::text = coalesce(
       j.payload->>'attempt_id', CASE WHEN j.payload->>'kind' = 'attempt' THEN j.payload->>'target_id' END)
     LEFT JOIN agent_sessions s ON s.id = coalesce(j.session_id, a.session_id)
     LEFT JOIN sweep_problems sp ON j.payload->>'kind' = 'sweep' AND sp.id::text = j.payload->>'target_id'
     WHERE j.status = 'leased' ORDER BY j.created_at LIMIT 100`,
  );
  return rows.map((r) => {
    const session = r.session_id;
    const attempt = r.attempt_id ?? (r.payload_kind === 'attempt' ? r.target_id : null);
    let target: string | null = null;
    let href: string | null = null;
    if (attempt && session) {
      target = `${r.kind === 'generate' ? 'Generating attempt' : 'Attempt'} #${r.attempt_number ?? '?'} of ${r.session_label ?? 'a session'}`;
      href = `/kernels/${session}/attempts/${attempt}`;
    } else if (r.payload_kind === 'submission' && r.target_id) {
      target = `Submission on ${r.problem_name ?? 'a problem'}`;
      href = `/leaderboard/submission/${r.target_id}`;
    } else if (r.payload_kind === 'sweep' && r.sweep_id) {
      target = `Sweep re-run of ${r.problem_name ?? 'a problem'}`;
      href = `/sweeps/${r.sweep_id}`;
    }
    return {
      id: r.id,
      kind: r.kind,
      device: r.device,
      runner_id: r.runner_id,
      attempts: r.attempts,
      lease_expires_at: r.lease_expires_at ? new Date(r.lease_expires_at).toISOString() : null,
      created_at: new Date(r.created_at).toISOString(),
      owner: r.owner_id && r.owner_email ? { id: r.owner_id, email: r.owner_email } : null,
      target,
      href,
    };
  });
}

/** Cancels a queued or running job and stops what it works on; a 409 when it is no longer in flight. */
export async function cancelJobAsAdmin(ctx: AppContext, admin: Caller, id: string): Promise<{ message: string }> {
  if (!isUuid(id)) throw new NotFoundError('Job not found');
  let sweepId: string | null = null;
  const message = await ctx.db.transaction(async (tx) => {
    const [job] = await tx.query<{
      status: string;
      kind: string;
      session_id: string | null;
      payload_kind: string | null;
      target_id: string | null;
      attempt_id: string | null;
    }>(
      `SELECT status, kind, session_id, payload->>'kind' AS payload_kind, payload->>'target_id' AS target_id,
         payload->>'attempt_id' AS attempt_id FROM jobs WHERE id = $1 FOR UPDATE`,
      [id],
    );
    if (!job) throw new NotFoundError('Job not found');
    if (job.status !== 'queued' && job.status !== 'leased')
      throw new ConflictError(`This job is no longer in flight (it is ${job.status})`);
    // The session's own Stop first: its generations and queued evaluations end, its attempts stop.
    if (job.session_id) await stopSessionWork(ctx, tx, job.session_id);
    // What a runner still holds (a Stop leaves a running evaluation to finish) is cancelled here.
    const still = await cancelJobInFlight(tx, id, CANCELLED_BY_ADMIN);
    if (job.payload_kind === 'attempt' && job.target_id && still) await markStopped(ctx, tx, [job.target_id]);
    if (job.payload_kind === 'submission' && job.target_id) {
      await markSubmissionFailed(tx, job.target_id, CANCELLED_BY_ADMIN);
      return 'Job cancelled: the submission failed, cancelled by an administrator';
    }
    if (job.payload_kind === 'sweep' && job.target_id) {
      sweepId = await stopSweepProblemRun(tx, job.target_id);
      return 'Job cancelled: the sweep is stopped';
    }
    return job.session_id ? 'Job cancelled: its session is stopped' : 'Job cancelled';
  });
  // The sweep's own Stop for the rest of it (its other sessions and queued re-runs), as its owner's would.
  if (sweepId) await stopSweep(ctx, admin, sweepId);
  return { message };
}
