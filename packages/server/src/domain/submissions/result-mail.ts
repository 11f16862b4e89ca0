// The mail a ranked submission's owner gets when it finishes (its verdict, figure and link) or is flagged for review
// (the reasons, and what happens next) (issue 35 item 4): sent through the one mail path (SMTP when configured, the
// outbox otherwise) after the result is written, never for test runs, never to a user who turned it off on /account
// (users.mail_results), and each at most once per submission (submissions.finish_mailed_at, flag_mailed_at: claimed
// before sending, or set without sending while the owner has it off). A mail that cannot be sent is logged; the
// result it tells of is written already.
import type { AppContext } from '../../context.js';

interface Row {
  email: string;
  problem_name: string;
  device: string;
  status: string;
  verdict: string | null;
  time_ms: number | null;
  speedup: number | null;
  error: string | null;
  message: string | null;
  flagged_for_review: boolean | null;
  reasons: string[] | null;
}

/** What the mail says happened: the verdict and figure, or why there is none. */
function outcomeOf(r: Row): string {
  if (r.status === 'failed') return `could not be evaluated: ${r.error ?? 'no reason given'}`;
  const verdict = (r.verdict ?? 'no verdict').replace(/_/g, ' ');
  if (r.verdict === 'accepted' && r.speedup !== null && r.time_ms !== null)
    return `${verdict}, ${Number(r.speedup).toFixed(2)}x the baseline (${Number(r.time_ms).toFixed(3)} ms)`;
  const why = r.message?.trim();
  return why ? `${verdict}: ${why.length > 300 ? `${why.slice(0, 300)}...` : why}` : verdict;
}

const NEXT =
  'Until a reviewer decides, it is listed below the unflagged results; you get a mail when it is approved (then it ' +
  'ranks among the others) or rejected (with the reason).';

/**
 * Mails the owner of a finished submission, at most once per mail kind; does nothing for a test run, a submission
 * still running, or an owner who turned result mail off. Never throws.
 */
export async function mailResult(ctx: AppContext, submissionId: string): Promise<void> {
  try {
    // Claimed first: a second call (a result written again, a retry) finds the column set and sends nothing. The
    // claim is made whether or not the owner wants mail (then nothing is sent): a result that finished while it was
    // off is not mailed later, and the columns say the decision was made.
    const [finished] = await ctx.db.query<{ mail: boolean }>(
      `UPDATE submissions s SET finish_mailed_at = now(),
         flag_mailed_at = CASE WHEN s.flagged_for_review THEN coalesce(s.flag_mailed_at, now()) ELSE s.flag_mailed_at END
       FROM users u
       WHERE s.id = $1 AND u.id = s.user_id AND s.purpose = 'submit'
         AND s.status IN ('completed', 'failed') AND s.finish_mailed_at IS NULL
       RETURNING u.mail_results AS mail`,
      [submissionId],
    );
    const [flaggedLater] = finished
      ? []
      : await ctx.db.query<{ mail: boolean }>(
          `UPDATE submissions s SET flag_mailed_at = now() FROM users u
           WHERE s.id = $1 AND u.id = s.user_id AND s.purpose = 'submit' AND s.flagged_for_review
             AND s.flag_mailed_at IS NULL
           RETURNING u.mail_results AS mail`,
          [submissionId],
        );
    if (!finished?.mail && !flaggedLater?.mail) return;
    const [row] = await ctx.db.query<Row>(
      `SELECT u.email, s.problem_name, s.device, s.status, s.verdict, s.time_ms, s.speedup, s.error,
         s.evaluation_state->>'message' AS message, s.flagged_for_review,
         ARRAY(SELECT jsonb_array_elements_text(coalesce(s.evaluation_state->'benchmarking_result'->'review_reasons',
           '[]'::jsonb))) AS reasons
       FROM submissions s JOIN users u ON u.id = s.user_id WHERE s.id = $1`,
      [submissionId],
    );
    if (!row) return;
    const link = `${ctx.config.publicUrl}/leaderboard/submission/${submissionId}`;
    const what = `Your submission on ${row.problem_name} (${row.device})`;
    const off = `You get this mail because "Email me when a result finishes" is on: ${ctx.config.publicUrl}/account turns it off.`;
    const flagged = row.flagged_for_review === true;
    const reasons = (row.reasons ?? []).join('; ') || 'no reason recorded';
    const text = [
      finished ? `${what} finished: ${outcomeOf(row)}.` : `${what} was flagged for review.`,
      flagged ? `It was flagged for review: ${reasons}. ${NEXT}` : null,
      link,
      off,
    ]
      .filter(Boolean)
      .join('\n\n');
    const subject = flagged
      ? `Your result on ${row.problem_name} was flagged for review`
      : `Your result on ${row.problem_name}: ${row.status === 'failed' ? 'not evaluated' : (row.verdict ?? 'finished').replace(/_/g, ' ')}${row.verdict === 'accepted' && row.speedup !== null ? `, ${Number(row.speedup).toFixed(2)}x` : ''}`;
    await ctx.mailer.send({ to: row.email, subject, text: `${text}\n` });
  } catch (error) {
    ctx.log.warn('result mail not sent', { submission_id: submissionId, error: String(error) });
  }
}
