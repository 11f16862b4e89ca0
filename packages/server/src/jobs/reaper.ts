// The lease reaper: a job whose holder vanished (no heartbeat before lease expiry) runs again, or dies when out of tries.
import type { Sql } from '../db/sql.js';
import type { Job } from './types.js';

/**
 * Requeues expired leases that have tries left and dead-letters the rest. Returns the jobs that died,
 * so the caller can settle what they were for (e.g. fail the attempt).
 */
export async function reapExpiredLeases(sql: Sql): Promise<{ requeued: number; dead: Job[] }> {
  const requeued = await sql.query(
    `UPDATE jobs SET status = 'queued', lease_token = NULL, lease_expires_at = NULL, runner_id = NULL,
       last_error = 'lease expired', run_after = now(), updated_at = now()
     WHERE status = 'leased' AND lease_expires_at < now() AND attempts < max_attempts
     RETURNING id`,
  );
  const dead = await sql.query<Job>(
    `UPDATE jobs SET status = 'dead', lease_token = NULL, lease_expires_at = NULL, last_error = 'lease expired',
       dead_reason = 'the runner holding it stopped responding ' || attempts || ' times', updated_at = now()
     WHERE status = 'leased' AND lease_expires_at < now() AND attempts >= max_attempts
     RETURNING id, kind, payload, device, status, attempts, max_attempts, lease_token, lease_expires_at,
       runner_id, last_error, dead_reason, session_id`,
  );
  return { requeued: requeued.length, dead };
}
