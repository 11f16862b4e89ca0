// The review queue: accepted results the judge flagged (over the device's peak, over 10x) wait for a superuser, who
// approves them into the ranking or rejects them with a reason; the decision and its reason are kept.
import type { ReviewDecision, ReviewItem } from '@kernelforge/sdk';
import type { AppContext } from '../context.js';
import { mailReviewDecision } from './notices.js';
import { iso, isoOrNull } from '../db/sql.js';
import { InvalidInputError, NotFoundError } from '../errors.js';
import { isUuid } from '../domain/sessions/queries.js';
import type { Caller } from '../domain/sessions/service.js';
import { publicUser } from '../domain/submissions/service.js';

interface ReviewRow {
  id: string;
  user_id: string;
  full_name: string | null;
  display_name: string | null;
  handle: string;
  email: string;
  problem_name: string;
  device: string;
  time_ms: number | null;
  speedup: number | null;
  review_reasons: unknown;
  review_status: 'approved' | 'rejected' | null;
  review_reason: string | null;
  reviewed_at: Date | null;
  created_at: Date;
}

const SELECT = `SELECT s.id, s.user_id, u.full_name, u.display_name, u.handle, u.email, s.problem_name, s.device, s.time_ms,
  s.speedup, s.evaluation_state->'benchmarking_result'->'review_reasons' AS review_reasons, s.review_status,
  s.review_reason, s.reviewed_at, s.created_at
  FROM submissions s JOIN users u ON u.id = s.user_id
  WHERE s.flagged_for_review AND s.verdict = 'accepted' AND s.purpose = 'submit'`;

function toItem(r: ReviewRow, viewer: Caller): ReviewItem {
  return {
    submission_id: r.id,
    user: publicUser(r, viewer),
    problem_name: r.problem_name,
    device: r.device,
    time_ms: r.time_ms === null ? null : Number(r.time_ms),
    speedup: r.speedup === null ? null : Number(r.speedup),
    review_reasons: Array.isArray(r.review_reasons) ? r.review_reasons.map(String) : [],
    status: r.review_status ?? 'pending',
    decision_reason: r.review_reason,
    reviewed_at: isoOrNull(r.reviewed_at),
    created_at: iso(r.created_at),
  };
}

export async function listReviews(
  ctx: AppContext,
  viewer: Caller,
  q: { status: 'pending' | 'decided'; limit: number; offset: number },
): Promise<{ data: ReviewItem[]; count: number }> {
  const which = q.status === 'pending' ? 'AND s.review_status IS NULL' : 'AND s.review_status IS NOT NULL';
  const order = q.status === 'pending' ? 's.created_at, s.id' : 's.reviewed_at DESC, s.id';
  const rows = await ctx.db.query<ReviewRow>(`${SELECT} ${which} ORDER BY ${order} LIMIT $1 OFFSET $2`, [
    q.limit,
    q.offset,
  ]);
  const count = await ctx.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM submissions s WHERE s.flagged_for_review AND s.verdict = 'accepted' AND s.purpose = 'submit' ${which}`,
  );
  return { data: rows.map((r) => toItem(r, viewer)), count: count[0]?.n ?? 0 };
}

export async function decideReview(
  ctx: AppContext,
  reviewer: Caller,
  submissionId: string,
  body: ReviewDecision,
): Promise<ReviewItem> {
  const reason = body.reason?.trim() || null;
  if (body.decision === 'reject' && !reason)
    throw new InvalidInputError([
      { loc: ['body', 'reason'], msg: 'Say why the result is rejected: the reason is kept', type: 'value_error' },
    ]);
  if (!isUuid(submissionId)) throw new NotFoundError('No flagged result with this id');
  const updated = await ctx.db.query<{ id: string }>(
    `UPDATE submissions SET review_status = $2, review_reason = $3, reviewed_by = $4, reviewed_at = now()
     WHERE id = $1 AND flagged_for_review AND verdict = 'accepted' RETURNING id`,
    [submissionId, body.decision === 'approve' ? 'approved' : 'rejected', reason, reviewer.id],
  );
  if (!updated[0]) throw new NotFoundError('No flagged result with this id');
  // Its owner is told (issue 35: an author never learnt a result was flagged or approved).
  await mailReviewDecision(ctx, submissionId);
  const rows = await ctx.db.query<ReviewRow>(`${SELECT} AND s.id = $1`, [submissionId]);
  return toItem(rows[0] as ReviewRow, reviewer);
}
