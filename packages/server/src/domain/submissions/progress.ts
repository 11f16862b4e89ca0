// A submission's horizon while its ranked evaluation is not finished: its place in the device's queue, or what its
// runner reports now and how long ranked evaluations of the problem on the device usually take.
import type { SubmissionProgress } from '@kernelforge/sdk';
import type { AppContext } from '../../context.js';
import { NotFoundError } from '../../errors.js';
import { isUuid } from '../sessions/queries.js';
import { evaluationOf, median, queuePosition } from '../sessions/progress.js';
import type { Caller } from '../sessions/service.js';

const NOTHING: SubmissionProgress = {
  phase: null,
  queue: null,
  phase_elapsed_seconds: null,
  estimate_seconds: null,
  typical_seconds: null,
  evaluation: null,
  notice: null,
};

/** GET /api/v1/submission/{id}/progress: its owner or a superuser (404 otherwise, as the submission's source is). */
export async function submissionProgressOf(ctx: AppContext, user: Caller, id: string): Promise<SubmissionProgress> {
  const [row] = isUuid(id)
    ? await ctx.db.query<{ user_id: string; status: string; problem_name: string; device: string; purpose: string }>(
        'SELECT user_id, status, problem_name, device, purpose FROM submissions WHERE id = $1',
        [id],
      )
    : [];
  if (!row || (row.user_id !== user.id && !user.is_superuser)) throw new NotFoundError('Submission not found');
  if (row.status !== 'queued' && row.status !== 'evaluating') return NOTHING;
  const [job] = await ctx.db.query<{
    id: string;
    status: 'queued' | 'leased';
    running_seconds: number | string | null;
    progress: unknown;
    attempts: number;
    last_error: string | null;
  }>(
    `SELECT id, status, extract(epoch FROM now() - leased_at) AS running_seconds, progress, attempts, last_error
     FROM jobs WHERE dedupe_key = $1 AND status IN ('queued', 'leased')`,
    [`evaluate:submission:${id}`],
  );
  if (!job) return { ...NOTHING, phase: row.status };
  // Evaluations of its kind of this problem on this device, lease to result: ranked submissions, or test runs (a
  // submission in benchmark mode). Both are timed twice, so a session's attempts (benchmark mode, timed once) would
  // understate them.
  const durations = await ctx.db.query<{ seconds: number | string | null }>(
    `SELECT extract(epoch FROM updated_at - leased_at) AS seconds FROM jobs
     WHERE kind = 'evaluate' AND status = 'done' AND device = $1 AND payload->>'problem_name' = $2
       AND payload->>'mode' = $3 AND (payload->>'mode' = 'ranked' OR payload->>'kind' = 'submission')
       AND leased_at IS NOT NULL
     ORDER BY updated_at DESC LIMIT 10`,
    [row.device, row.problem_name, row.purpose === 'test' ? 'benchmark' : 'ranked'],
  );
  const typical = median(durations.map((d) => Number(d.seconds)).filter((s) => Number.isFinite(s) && s >= 0));
  const waiting = job.status === 'queued';
  const elapsed =
    !waiting && job.running_seconds !== null ? Math.max(0, Math.round(Number(job.running_seconds) * 10) / 10) : null;
  return {
    phase: waiting ? 'queued' : 'evaluating',
    queue: waiting ? await queuePosition(ctx.db, job.id) : null,
    phase_elapsed_seconds: elapsed,
    estimate_seconds:
      typical !== null && elapsed !== null ? Math.max(0, Math.round((typical - elapsed) * 10) / 10) : null,
    typical_seconds: typical,
    evaluation: waiting ? null : evaluationOf(job.progress),
    notice: waiting && job.attempts > 0 && job.last_error ? job.last_error : null,
  };
}
