// Leaderboards: per problem, one row per user and device holding their best accepted time, ranked by time.
import type { Leaderboard, LeaderboardEntry } from '@kernelforge/sdk';
import type { AppContext } from '../context.js';
import { iso } from '../db/sql.js';
import type { Caller } from '../domain/sessions/service.js';
import { publicReviewReasons, readsWhole } from '../domain/result-visibility.js';
import { publicUser } from '../domain/submissions/service.js';
import { deviceIds } from '../domain/validation.js';

interface EntryRow {
  id: string;
  user_id: string;
  full_name: string | null;
  display_name: string | null;
  handle: string;
  email: string;
  review_reasons: string[] | null;
  speedup_interval: [number, number] | null;
  time_interval: [number, number] | null;
  runs: number;
  problem_name: string;
  device: string;
  language: string;
  time_ms: number;
  speedup: number | null;
  flagged_for_review: boolean;
  created_at: Date;
  total: number;
}

const isInterval = (v: unknown): v is [number, number] =>
  Array.isArray(v) && v.length === 2 && v.every((x) => typeof x === 'number' && Number.isFinite(x));

/**
 * Two results are tied when the 95% interval of the ratio of their times holds 1: with each time's own interval
 * [lo, hi], the ratio a / b lies in [a.lo / b.hi, a.hi / b.lo], which holds 1 exactly when the intervals overlap.
 * Conservative (two independent intervals), so a "tie" says the order is not established, not that they are equal.
 */
export function withinNoise(a: readonly number[] | undefined, b: readonly number[] | undefined): boolean {
  if (!a || !b || a.length !== 2 || b.length !== 2) return false;
  return (a[0] as number) <= (b[1] as number) && (b[0] as number) <= (a[1] as number);
}

/** Ranked entries of several problems at once (one query), at most `limit` per problem. */
async function entriesFor(
  ctx: AppContext,
  problemNames: string[],
  opts: { limit: number; device?: string | undefined },
  viewer: Pick<Caller, 'id' | 'is_superuser'>,
): Promise<Map<string, { entries: LeaderboardEntry[]; count: number }>> {
  const params: unknown[] = [problemNames, opts.limit];
  let deviceFilter = '';
  if (opts.device) {
    params.push(await deviceIds(ctx, opts.device));
    deviceFilter = `AND s.device = ANY($${params.length}::text[])`;
  }
  const rows = await ctx.db.query<EntryRow & { rank: number }>(
    `WITH best AS (
       SELECT DISTINCT ON (s.problem_name, s.user_id, s.device) s.id, s.user_id, s.problem_name, s.device, s.language, s.time_ms,
         s.speedup, (s.flagged_for_review AND s.review_status IS DISTINCT FROM 'approved') AS flagged_for_review, s.created_at,
         s.evaluation_state->'benchmarking_result'->'review_reasons' AS review_reasons,
         s.evaluation_state->'benchmarking_result'->'speedup_interval' AS speedup_interval,
         s.evaluation_state->'benchmarking_result'->'optimized_time_interval' AS time_interval,
         -- Counted before DISTINCT ON keeps the best: every accepted run of this user, problem and device.
         (count(*) OVER (PARTITION BY s.problem_name, s.user_id, s.device))::int AS runs
       FROM submissions s
       WHERE s.problem_name = ANY($1::text[]) AND s.verdict = 'accepted' AND s.time_ms IS NOT NULL AND s.purpose = 'submit'
         AND s.review_status IS DISTINCT FROM 'rejected' ${deviceFilter}
       ORDER BY s.problem_name, s.user_id, s.device, s.time_ms, s.created_at, s.id),
     ranked AS (
       -- A flagged result (over the device's peak, over 10x) ranks below every unflagged one until reviewed.
       SELECT best.*, (row_number() OVER (PARTITION BY problem_name
           ORDER BY flagged_for_review, time_ms, created_at, id))::int AS rank,
         (count(*) OVER (PARTITION BY problem_name))::int AS total
       FROM best)
     SELECT r.*, u.full_name, u.display_name, u.handle, u.email FROM ranked r JOIN users u ON u.id = r.user_id
     WHERE r.rank <= $2 ORDER BY r.problem_name, r.rank`,
    params,
  );
  const out = new Map<string, { entries: LeaderboardEntry[]; count: number }>();
  for (const r of rows) {
    const board = out.get(r.problem_name) ?? { entries: [], count: r.total };
    const timeInterval = isInterval(r.time_interval) ? r.time_interval : undefined;
    const previous = board.entries[board.entries.length - 1];
    board.entries.push({
      rank: r.rank,
      submission_id: r.id,
      user: publicUser(r, viewer),
      problem_name: r.problem_name,
      device: r.device,
      language: r.language as LeaderboardEntry['language'],
      time_ms: Number(r.time_ms),
      ...(timeInterval ? { time_interval: timeInterval } : {}),
      speedup: r.speedup === null ? null : Number(r.speedup),
      ...(isInterval(r.speedup_interval) ? { speedup_interval: r.speedup_interval } : {}),
      runs: Number(r.runs),
      within_noise_of_previous: withinNoise(previous?.time_interval, timeInterval),
      flagged_for_review: r.flagged_for_review,
      review_reasons: !Array.isArray(r.review_reasons)
        ? []
        : readsWhole(viewer, r.user_id)
          ? r.review_reasons
          : publicReviewReasons(r.review_reasons),
      created_at: iso(r.created_at),
    });
    out.set(r.problem_name, board);
  }
  return out;
}

export async function leaderboardFor(
  ctx: AppContext,
  problemName: string,
  opts: { limit: number; device?: string | undefined },
  viewer: Pick<Caller, 'id' | 'is_superuser'>,
): Promise<Leaderboard> {
  const problem = await ctx.catalogue.require(problemName);
  const board = (await entriesFor(ctx, [problem.name], opts, viewer)).get(problem.name);
  return { problem_name: problem.name, title: problem.title, entries: board?.entries ?? [], count: board?.count ?? 0 };
}

/** Every catalogue problem with its top `limit` entries (problems without entries included, empty). */
export async function allLeaderboards(
  ctx: AppContext,
  opts: { limit: number; device?: string | undefined },
  viewer: Pick<Caller, 'id' | 'is_superuser'>,
): Promise<{ data: Leaderboard[]; count: number }> {
  const problems = await ctx.catalogue.list();
  const boards = await entriesFor(
    ctx,
    problems.map((x) => x.name),
    opts,
    viewer,
  );
  const data = problems.map((x) => {
    const b = boards.get(x.name);
    return { problem_name: x.name, title: x.title, entries: b?.entries ?? [], count: b?.count ?? 0 };
  });
  return { data, count: data.length };
}
