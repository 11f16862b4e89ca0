// Scoring a sweep's problems (issue 24): when a sweep session settles, its best attempt is re-run once in ranked mode
// (fresh secret inputs, the leaderboard's seed), and that result, not the best of N noisy benchmark runs, is the
// problem's `correct` and `speedup`.
import type { EvaluationState, Language } from '@kernelforge/sdk';
import type { AppContext } from '../../context.js';
import { bestAttempt } from '../../db/rows.js';
import type { Sql } from '../../db/sql.js';
import { JOB_PRIORITY } from '../../jobs/types.js';
import { enqueueEvaluation, evaluationJobKey } from '../evaluation/jobs.js';
import type { EvaluationTarget } from '../evaluation/target.js';
import { findSession, sessionAttempts } from '../sessions/queries.js';
import { redactRanked } from '../submissions/lifecycle.js';
import {
  markSweepProblemEvaluated,
  markSweepProblemEvaluating,
  markSweepProblemFailed,
  markSweepProblemUnscored,
} from './lifecycle.js';

/** The dedupe key of a sweep problem's ranked job (stop cancels by it). */
export const sweepJobKey = (sweepProblemId: string) => evaluationJobKey('sweep', sweepProblemId);

/**
 * Called in the transaction that settles a session idle: if the session is a sweep problem still pending, queue the
 * ranked re-run of its best attempt, or score it not correct at once when no attempt was accepted.
 */
export async function scoreSweepProblem(ctx: AppContext, tx: Sql, sessionId: string): Promise<void> {
  const [row] = await tx.query<{ id: string }>(
    `SELECT sp.id FROM sweep_problems sp JOIN sweeps w ON w.id = sp.sweep_id
     WHERE sp.session_id = $1 AND sp.status = 'pending' AND w.stopped_at IS NULL FOR UPDATE OF sp`,
    [sessionId],
  );
  if (!row) return;
  const session = await findSession(tx, sessionId);
  if (!session) return;
  const best = bestAttempt(await sessionAttempts(tx, sessionId));
  const state = best?.evaluation_state ?? null;
  const source = best?.status === 'completed' && state?.verdict === 'accepted' ? best.source : null;
  if (!best || !source) {
    const verdict = state?.verdict ?? (best ? best.status : 'no attempt');
    await markSweepProblemUnscored(tx, row.id, best?.id ?? null, verdict);
    return;
  }
  await enqueueEvaluation(ctx, tx, {
    kind: 'sweep',
    targetId: row.id,
    problemName: session.problem_name,
    device: session.device,
    language: best.language as Language,
    source,
    ownerId: session.owner_id,
    priority: JOB_PRIORITY.laterAttempt,
  });
  await markSweepProblemEvaluating(tx, row.id, best.id);
}

/** A ranked re-run's result: correct when accepted, with its paired speedup (and interval) over the reference. */
export async function recordSweepEvaluation(tx: Sql, sweepProblemId: string, state: EvaluationState): Promise<void> {
  const correct = state.verdict === 'accepted';
  const bench = correct ? state.benchmarking_result : null;
  await markSweepProblemEvaluated(tx, sweepProblemId, {
    correct: correct && bench != null,
    speedup: bench?.speedup ?? null,
    speedupInterval: bench?.speedup_interval ?? null,
    verdict: state.verdict,
  });
}

/** Where a sweep problem's ranked re-run lands (its EvaluationTarget); a ranked result is stored redacted. */
export const sweepEvaluation: EvaluationTarget = {
  async onResult(_ctx, tx, sweepProblemId, state) {
    await recordSweepEvaluation(tx, sweepProblemId, redactRanked(state));
  },
  async onDead(_ctx, tx, sweepProblemId, reason) {
    // Out of tries: the problem failed (and counts as not correct).
    await markSweepProblemFailed(tx, sweepProblemId, `Ranked evaluation failed: ${reason}`);
  },
};
