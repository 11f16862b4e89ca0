// A running session's horizon: where its current attempt's job stands in its queue, and how long the phase usually takes.
import { EvaluationProgress, type QueuePosition, type SessionProgress } from '@kernelforge/sdk';
import type { AppContext } from '../../context.js';
import type { Sql } from '../../db/sql.js';
import { ownSession } from './queries.js';
import type { Caller } from './service.js';

type Phase = NonNullable<SessionProgress['phase']>;

const NOTHING: SessionProgress = {
  attempt_id: null,
  phase: null,
  queue: null,
  phase_elapsed_seconds: null,
  estimate_seconds: null,
  typical_seconds: null,
  typical_from: null,
  evaluation: null,
  notice: null,
};

/** How many earlier phases a typical duration is the median of: recent enough to follow a session's drift. */
const SAMPLES = 10;

interface CurrentRow {
  id: string;
  status: Phase;
  job_id: string | null;
  job_kind: 'generate' | 'evaluate' | null;
  job_status: 'queued' | 'leased' | null;
  running_seconds: number | string | null;
  progress: unknown;
  job_attempts: number | null;
  last_error: string | null;
}

/** The first live attempt (as the web's progress box picks it) and the job that carries its phase, if any. */
async function currentAttempt(sql: Sql, sessionId: string): Promise<CurrentRow | null> {
  const rows = await sql.query<CurrentRow>(
    `SELECT a.id, a.status, j.id AS job_id, j.kind AS job_kind, j.status AS job_status,
       extract(epoch FROM now() - j.leased_at) AS running_seconds, j.progress, j.attempts AS job_attempts, j.last_error
     FROM generation_attempts a
     LEFT JOIN jobs j ON j.status IN ('queued', 'leased') AND j.dedupe_key =
       CASE WHEN a.status = 'evaluating' THEN 'evaluate:attempt:' || a.id ELSE 'generate:' || a.id END
     WHERE a.session_id = $1 AND a.status IN ('queued', 'generating', 'evaluating')
     ORDER BY a.attempt_number LIMIT 1`,
    [sessionId],
  );
  return rows[0] ?? null;
}

/**
 * The claim order (jobs/queue.ts) without its fair-share term: queued jobs of the same kind and device with a
 * higher priority, or the same priority and an earlier run_after (then created_at); and the jobs leased now.
 */
export async function queuePosition(sql: Sql, jobId: string): Promise<QueuePosition | null> {
  const rows = await sql.query<{ job: 'generate' | 'evaluate'; ahead: number; running: number }>(
    `WITH me AS (SELECT id, kind, device, priority, run_after, created_at FROM jobs WHERE id = $1)
     SELECT me.kind AS job,
       (SELECT count(*)::int FROM jobs j WHERE j.kind = me.kind AND j.device IS NOT DISTINCT FROM me.device
          AND j.status = 'queued' AND j.id <> me.id
          AND (j.priority > me.priority OR (j.priority = me.priority
            AND (j.run_after, j.created_at) < (me.run_after, me.created_at)))) AS ahead,
       (SELECT count(*)::int FROM jobs j WHERE j.kind = me.kind AND j.device IS NOT DISTINCT FROM me.device
          AND j.status = 'leased') AS running
     FROM me`,
    [jobId],
  );
  const row = rows[0];
  return row ? { job: row.job, ahead: Number(row.ahead), running: Number(row.running) } : null;
}

/**
 * Durations, newest first, of finished phases: a generation from its job's lease to its completion; an evaluation
 * likewise, or the runner's own seconds for jobs leased before leases were timed. Evaluations are the attempts'
 * benchmark runs only (not a sweep's ranked re-runs).
 */
async function phaseDurations(sql: Sql, phase: 'generate' | 'evaluate', scope: string, params: unknown[]) {
  const seconds =
    phase === 'generate'
      ? 'extract(epoch FROM j.updated_at - j.leased_at)'
      : 'coalesce(extract(epoch FROM j.updated_at - j.leased_at), a.runner_seconds)';
  const statuses = phase === 'generate' ? `('evaluating', 'completed')` : `('completed')`;
  const rows = await sql.query<{ seconds: number | string | null }>(
    `SELECT ${seconds} AS seconds
     FROM generation_attempts a
     JOIN jobs j ON j.dedupe_key = '${phase === 'generate' ? 'generate:' : 'evaluate:attempt:'}' || a.id
     WHERE ${scope} AND a.status IN ${statuses} AND j.status = 'done'
     ORDER BY j.updated_at DESC LIMIT ${SAMPLES}`,
    params,
  );
  return rows.map((r) => Number(r.seconds)).filter((s) => Number.isFinite(s) && s >= 0);
}

export function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((x, y) => x - y);
  const mid = Math.floor(sorted.length / 2);
  const m = sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
  return Math.round(m * 10) / 10;
}

/** The typical duration of a phase: this session's own attempts first, else the owner's recent ones on the problem and device. */
async function typicalDuration(
  sql: Sql,
  session: { id: string; owner_id: string; problem_name: string; device: string },
  phase: 'generate' | 'evaluate',
): Promise<{ seconds: number; from: 'session' | 'problem' } | null> {
  const own = median(await phaseDurations(sql, phase, 'a.session_id = $1', [session.id]));
  if (own !== null) return { seconds: own, from: 'session' };
  const theirs = median(
    await phaseDurations(
      sql,
      phase,
      'a.session_id IN (SELECT id FROM agent_sessions WHERE owner_id = $1 AND problem_name = $2 AND device = $3)',
      [session.owner_id, session.problem_name, session.device],
    ),
  );
  return theirs === null ? null : { seconds: theirs, from: 'problem' };
}

/** The evaluation's progress as its runner last reported it (validated when stored; read back defensively). */
export function evaluationOf(stored: unknown): EvaluationProgress | null {
  if (stored === null || stored === undefined) return null;
  let value = stored;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return null;
    }
  }
  const parsed = EvaluationProgress.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/** GET /api/v1/agent-session/{id}/progress: owner or superuser, like the session itself (404 otherwise). */
export async function sessionProgressOf(ctx: AppContext, user: Caller, id: string): Promise<SessionProgress> {
  const session = await ownSession(ctx.db, user, id);
  if (session.status !== 'active' || session.deleted_at) return NOTHING;
  const current = await currentAttempt(ctx.db, session.id);
  if (!current) return NOTHING;
  // An attempt that is queued or generating is in its generation; evaluating, in its evaluation.
  const phaseJob = current.status === 'evaluating' ? 'evaluate' : 'generate';
  const waiting = current.job_id !== null && current.job_status === 'queued';
  const queue = waiting ? await queuePosition(ctx.db, current.job_id as string) : null;
  const typical = await typicalDuration(ctx.db, session, phaseJob);
  const running = current.job_status === 'leased' && current.running_seconds !== null;
  const elapsed = running ? Math.max(0, Math.round(Number(current.running_seconds) * 10) / 10) : null;
  const estimate = typical && elapsed !== null ? Math.max(0, Math.round((typical.seconds - elapsed) * 10) / 10) : null;
  return {
    attempt_id: current.id,
    evaluation: phaseJob === 'evaluate' && current.job_status === 'leased' ? evaluationOf(current.progress) : null,
    phase: current.status,
    queue,
    phase_elapsed_seconds: elapsed,
    estimate_seconds: estimate,
    typical_seconds: typical?.seconds ?? null,
    typical_from: typical?.from ?? null,
    // A try that ended without a result (a runner gone silent, a lease run out, an error): why it waits again.
    notice: waiting && Number(current.job_attempts ?? 0) > 0 && current.last_error ? current.last_error : null,
  };
}
