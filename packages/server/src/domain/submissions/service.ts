// Submissions: a user's own source evaluated in ranked mode with the leaderboard's secret seed; their reads. A test
// run ("Run tests", purpose `test`) is the same row evaluated in benchmark mode: never ranked, never reviewed.
import type { CreateSubmissionRequest, SubmissionDetail, Submission, SubmissionPurpose } from '@kernelforge/sdk';
import { InvalidInputError, LimitError, NotFoundError } from '../../errors.js';
import { enqueueEvaluation } from '../evaluation/jobs.js';
import { JOB_PRIORITY } from '../../jobs/types.js';
import { findAttempt, findSession, isUuid } from '../sessions/queries.js';
import type { AppContext } from '../../context.js';
import type { Caller } from '../sessions/service.js';
import { iso, isoOrNull } from '../../db/sql.js';
import { insertSubmission } from './lifecycle.js';
import { figuresOnly, readsWhole } from '../result-visibility.js';
import { enforceDailyQuota, requireDevice } from '../validation.js';

export interface SubmissionRow {
  id: string;
  user_id: string;
  full_name: string | null;
  display_name: string | null;
  handle: string;
  email: string;
  problem_name: string;
  device: string;
  language: string;
  source: string;
  status: string;
  purpose: SubmissionPurpose;
  verdict: string | null;
  time_ms: number | null;
  speedup: number | null;
  flagged_for_review: boolean;
  evaluation_state: Submission['evaluation_state'];
  session_id: string | null;
  attempt_id: string | null;
  error: string | null;
  created_at: Date;
  finished_at: Date | null;
}

export const SUBMISSION_SELECT = `SELECT s.id, s.user_id, u.full_name, u.display_name, u.handle, u.email, s.problem_name, s.device, s.language, s.source, s.status,
  s.purpose, s.verdict, s.time_ms, s.speedup, s.flagged_for_review, s.evaluation_state, s.session_id, s.attempt_id, s.error,
  s.created_at, s.finished_at FROM submissions s JOIN users u ON u.id = s.user_id`;

/** What others see of a user: the name they chose, else their full name, else their stored handle of words (never
 * an id); the email only when the viewer is a superuser. */
export function publicUser(
  u: { user_id: string; full_name: string | null; display_name: string | null; handle: string; email: string },
  viewer: Pick<Caller, 'is_superuser'>,
) {
  return {
    id: u.user_id,
    full_name: u.full_name,
    display_name: u.display_name?.trim() || u.full_name?.trim() || u.handle,
    ...(viewer.is_superuser ? { email: u.email } : {}),
  };
}

/** A submission as `viewer` may read it: whole for its owner and superusers; for anyone else without its source, its
    session and attempt, its error, and with the figures of its result only (result-visibility.ts). */
export function toSubmission(r: SubmissionRow, viewer: Caller): Submission {
  const mine = readsWhole(viewer, r.user_id);
  return {
    id: r.id,
    user: publicUser(r, viewer),
    problem_name: r.problem_name,
    device: r.device,
    language: r.language as Submission['language'],
    source: mine ? r.source : null,
    status: r.status as Submission['status'],
    purpose: r.purpose,
    verdict: r.verdict,
    time_ms: r.time_ms === null ? null : Number(r.time_ms),
    speedup: r.speedup === null ? null : Number(r.speedup),
    evaluation_state: mine || r.evaluation_state === null ? r.evaluation_state : figuresOnly(r.evaluation_state),
    session_id: mine ? r.session_id : null,
    attempt_id: mine ? r.attempt_id : null,
    error: mine ? r.error : null,
    created_at: iso(r.created_at),
    finished_at: isoOrNull(r.finished_at),
  };
}

/** Unfinished test runs a user may have at once ("Run tests" cannot flood the runner: one runs, one waits). */
export const TEST_RUNS_IN_FLIGHT = 2;

/** A test run's limits, apart from the submission quota: TEST_RUNS_IN_FLIGHT unfinished at once, and the daily
    quota of test runs (429 with Retry-After and a `detail` that says which). */
async function enforceTestRunLimits(ctx: AppContext, userId: string): Promise<void> {
  const [row] = await ctx.db.query<{ today: number; open: number; oldest: Date | null }>(
    `SELECT count(*)::int AS today, (count(*) FILTER (WHERE status IN ('queued', 'evaluating')))::int AS open,
       min(created_at) AS oldest
     FROM submissions WHERE user_id = $1 AND purpose = 'test' AND created_at > now() - interval '1 day'`,
    [userId],
  );
  if ((row?.open ?? 0) >= TEST_RUNS_IN_FLIGHT) {
    throw new LimitError(
      `${row?.open} test runs are still running (at most ${TEST_RUNS_IN_FLIGHT} at once): wait for one to finish`,
      10,
    );
  }
  const limit = ctx.config.dailyLimits.testRuns;
  if ((row?.today ?? 0) >= limit) {
    const retry = row?.oldest
      ? Math.max(1, Math.ceil((new Date(row.oldest).getTime() + 86_400_000 - Date.now()) / 1000))
      : 3600;
    throw new LimitError(`Daily limit of ${limit} test runs reached`, retry);
  }
}

/** POST /submission: a ranked evaluation for the leaderboard. */
export function createSubmission(ctx: AppContext, user: Caller, body: CreateSubmissionRequest): Promise<Submission> {
  return createEvaluated(ctx, user, body, 'submit');
}

/** POST /submission/test ("Run tests"): benchmark mode on public inputs; never on a leaderboard, its own limits. */
export function createTestRun(ctx: AppContext, user: Caller, body: CreateSubmissionRequest): Promise<Submission> {
  return createEvaluated(ctx, user, body, 'test');
}

async function createEvaluated(
  ctx: AppContext,
  user: Caller,
  body: CreateSubmissionRequest,
  purpose: SubmissionPurpose,
): Promise<Submission> {
  const problem = await ctx.catalogue.require(body.problem_name);
  const device = await requireDevice(ctx, body.device, problem);
  // pytorch problems take `pytorch` on every device; C-ABI problems take `cuda` on GPUs, C or C++ on cpus.
  const allowed =
    problem.kind === 'pytorch'
      ? ['pytorch']
      : device.kind === 'cuda'
        ? ['cuda']
        : problem.languages.filter((l) => l !== 'cuda' && l !== 'pytorch');
  if (!allowed.includes(body.language)) {
    throw new InvalidInputError([
      {
        loc: ['body', 'language'],
        msg: `Language '${body.language}' is not accepted on ${device.id}; use ${allowed.join(' or ')}`,
        type: 'value_error',
      },
    ]);
  }
  let sessionId: string | null = null;
  if (body.attempt_id !== undefined) {
    const attempt = await findAttempt(ctx.db, body.attempt_id);
    const session = attempt ? await findSession(ctx.db, attempt.session_id) : null;
    if (!attempt || !session || session.owner_id !== user.id) throw new NotFoundError('Attempt not found');
    sessionId = session.id;
  }
  if (purpose === 'test') await enforceTestRunLimits(ctx, user.id);
  else await enforceDailyQuota(ctx, 'submissions', user.id);
  const id = await ctx.db.transaction(async (tx) => {
    const submissionId = await insertSubmission(tx, {
      userId: user.id,
      problemName: problem.name,
      device: device.id,
      language: body.language,
      source: body.source,
      sessionId,
      attemptId: body.attempt_id ?? null,
      purpose,
    });
    await enqueueEvaluation(ctx, tx, {
      kind: 'submission',
      targetId: submissionId,
      problemName: problem.name,
      device: device.id,
      language: body.language,
      source: body.source,
      ownerId: user.id,
      priority: JOB_PRIORITY.submission,
      ...(purpose === 'test' ? { mode: 'benchmark' as const } : {}),
    });
    return submissionId;
  });
  return getOwnSubmission(ctx, user, id);
}

async function loadSubmission(ctx: AppContext, id: string): Promise<SubmissionRow | null> {
  if (!isUuid(id)) return null;
  const rows = await ctx.db.query<SubmissionRow>(`${SUBMISSION_SELECT} WHERE s.id = $1`, [id]);
  return rows[0] ?? null;
}

async function getOwnSubmission(ctx: AppContext, user: Caller, id: string): Promise<Submission> {
  const row = await loadSubmission(ctx, id);
  if (!row || (row.user_id !== user.id && !user.is_superuser)) throw new NotFoundError('Submission not found');
  return toSubmission(row, user);
}

export async function listSubmissions(
  ctx: AppContext,
  user: Caller,
  q: { limit: number; offset: number; problemName?: string | undefined; purpose?: SubmissionPurpose | undefined },
): Promise<{ data: Submission[]; count: number }> {
  // Submissions by default; `purpose: 'test'` lists the test runs apart.
  const params: unknown[] = [user.id, q.purpose ?? 'submit'];
  let where = 'WHERE s.user_id = $1 AND s.purpose = $2';
  if (q.problemName) {
    params.push(q.problemName);
    where += ` AND s.problem_name = $${params.length}`;
  }
  const [total] = await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM submissions s ${where}`, params);
  const rows = await ctx.db.query<SubmissionRow>(
    `${SUBMISSION_SELECT} ${where} ORDER BY s.created_at DESC, s.id LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, q.limit, q.offset],
  );
  return { data: rows.map((r) => toSubmission(r, user)), count: total?.n ?? 0 };
}

/**
 * A submission's detail. Its owner (and superusers) see everything; others reach only accepted ones
 * (those are what leaderboards link to), without the source.
 */
export async function submissionDetail(ctx: AppContext, user: Caller, id: string): Promise<SubmissionDetail> {
  const row = await loadSubmission(ctx, id);
  const mine = row && (row.user_id === user.id || user.is_superuser);
  // A test run is its owner's alone: no leaderboard links to it.
  if (!row || (!mine && (row.verdict !== 'accepted' || row.purpose === 'test')))
    throw new NotFoundError('Submission not found');
  return { ...toSubmission(row, user), rank: await rankOf(ctx, row) };
}

/** The submission's place on its problem and device board, when it is its user's best there. */
async function rankOf(ctx: AppContext, row: SubmissionRow): Promise<number | null> {
  if (row.purpose === 'test' || row.verdict !== 'accepted' || row.time_ms === null) return null;
  const rows = await ctx.db.query<{ id: string; rank: number }>(
    `WITH best AS (
       SELECT DISTINCT ON (user_id) id, time_ms, created_at FROM submissions
       WHERE problem_name = $1 AND device = $2 AND verdict = 'accepted' AND time_ms IS NOT NULL
         AND purpose = 'submit' AND review_status IS DISTINCT FROM 'rejected'
       ORDER BY user_id, time_ms, created_at, id)
     SELECT id, (row_number() OVER (ORDER BY time_ms, created_at, id))::int AS rank FROM best`,
    [row.problem_name, row.device],
  );
  return rows.find((r) => r.id === row.id)?.rank ?? null;
}
