// The caller's notices, derived from their submissions of the last 30 days (no table of its own): each one finished,
// flagged for review, approved or rejected, newest first; and the mail a reviewer's decision sends its owner.
import type { Notice } from '@kernelforge/sdk';
import type { AppContext } from '../context.js';
import type { Caller } from '../domain/sessions/service.js';

interface Row {
  id: string;
  problem_name: string;
  status: string;
  verdict: string | null;
  speedup: number | null;
  error: string | null;
  flagged_for_review: boolean | null;
  review_status: string | null;
  review_reason: string | null;
  reasons: string[] | null;
  finished_at: Date | null;
  reviewed_at: Date | null;
}

const iso = (d: Date) => new Date(d).toISOString();

export async function noticesFor(ctx: AppContext, user: Caller): Promise<{ data: Notice[] }> {
  const rows = await ctx.db.query<Row>(
    `SELECT id, problem_name, status, verdict, speedup, error, flagged_for_review, review_status, review_reason,
       ARRAY(SELECT jsonb_array_elements_text(coalesce(evaluation_state->'benchmarking_result'->'review_reasons',
         '[]'::jsonb))) AS reasons, finished_at, reviewed_at
     FROM submissions
     WHERE user_id = $1 AND purpose = 'submit' AND finished_at IS NOT NULL AND finished_at > now() - interval '30 days'
     ORDER BY finished_at DESC LIMIT 50`,
    [user.id],
  );
  const data: Notice[] = [];
  for (const r of rows) {
    const href = `/leaderboard/submission/${r.id}`;
    const what = `Your submission on ${r.problem_name}`;
    if (r.reviewed_at && (r.review_status === 'approved' || r.review_status === 'rejected')) {
      data.push({
        id: `${r.id}:${r.review_status}`,
        kind: r.review_status,
        at: iso(r.reviewed_at),
        text:
          r.review_status === 'approved'
            ? `${what} was approved by a reviewer: it is ranked among the other results.`
            : `${what} was rejected by a reviewer: ${r.review_reason ?? 'no reason given'}.`,
        href,
      });
    }
    if (r.flagged_for_review && r.finished_at) {
      const why = (r.reasons ?? []).join('; ');
      data.push({
        id: `${r.id}:flagged`,
        kind: 'flagged',
        at: iso(r.finished_at),
        text: `${what} was flagged for review${why ? ` (${why})` : ''}: it ranks below unflagged results until a reviewer decides.`,
        href,
      });
    }
    if (r.finished_at) {
      const outcome =
        r.status === 'failed'
          ? `could not be evaluated: ${r.error ?? 'no reason given'}`
          : `finished: ${(r.verdict ?? 'no verdict').replace(/_/g, ' ')}${r.speedup ? `, ${r.speedup.toFixed(2)}x` : ''}`;
      data.push({
        id: `${r.id}:finished`,
        kind: 'finished',
        at: iso(r.finished_at),
        text: `${what} ${outcome}.`,
        href,
      });
    }
  }
  data.sort((a, b) => b.at.localeCompare(a.at));
  return { data };
}

/** Tells a result's owner by mail (or the outbox) that a reviewer approved or rejected it. Never fails the decision. */
export async function mailReviewDecision(ctx: AppContext, submissionId: string): Promise<void> {
  const [row] = await ctx.db.query<{
    email: string;
    problem_name: string;
    review_status: string;
    review_reason: string | null;
  }>(
    `SELECT u.email, s.problem_name, s.review_status, s.review_reason FROM submissions s JOIN users u ON u.id = s.user_id
     WHERE s.id = $1`,
    [submissionId],
  );
  if (!row) return;
  const approved = row.review_status === 'approved';
  const link = `${ctx.config.publicUrl}/leaderboard/submission/${submissionId}`;
  try {
    await ctx.mailer.send({
      to: row.email,
      subject: `Your result on ${row.problem_name} was ${approved ? 'approved' : 'rejected'}`,
      text: approved
        ? `A reviewer approved your flagged result on ${row.problem_name}: it is now ranked among the other results.\n\n${link}\n`
        : `A reviewer rejected your flagged result on ${row.problem_name}: ${row.review_reason ?? 'no reason given'}.\n\n${link}\n`,
    });
  } catch (error) {
    ctx.log.warn('review decision mail not sent', { submission_id: submissionId, error: String(error) });
  }
}
