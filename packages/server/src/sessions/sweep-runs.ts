// Scoring a sweep's problems (issue 24): when a sweep session settles, its best attempt is re-run once in ranked mode
// (fresh secret inputs, the leaderboard's seed), and that result, not the best of N noisy benchmark runs, is the
// problem's `correct` and `speedup`.
import { torchJobProblem } from '@kernelforge/runner';
import type { EvaluationJobPayload, EvaluationState, Language } from '@kernelforge/sdk';
import type { AppContext } from '../context.js';
import { bestAttempt } from '../db/rows.js';
import { leaderboardSeed } from '../db/seeds.js';
import type { Sql } from '../db/sql.js';
import { enqueueJob } from '../jobs/queue.js';
import { JOB_PRIORITY } from '../jobs/types.js';
import { findSession, sessionAttempts } from './queries.js';

/** The dedupe key of a sweep problem's ranked job (stop cancels by it). */
export const sweepJobKey = (sweepProblemId: string) => `evaluate:sweep:${sweepProblemId}`;

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
    await tx.query(
      `UPDATE sweep_problems SET status = 'evaluated', best_attempt_id = $2, correct = false, verdict = $3,
         evaluated_at = now() WHERE id = $1`,
      [row.id, best?.id ?? null, verdict],
    );
    return;
  }
  const payload: EvaluationJobPayload = {
    kind: 'sweep',
    target_id: row.id,
    mode: 'ranked',
    problem_name: session.problem_name,
    device: session.device,
    language: best.language as Language,
    source,
    secret_seed: await leaderboardSeed(tx, session.problem_name, session.device),
  };
  const problem = await ctx.catalogue.find(session.problem_name);
  if (problem?.kind === 'pytorch') {
    // As an attempt's evaluate job does (attempt-jobs.ts): only the device's kind picks the sizes (no device lookup
    // inside this transaction).
    const kind = session.device.startsWith('cuda') ? 'cuda' : 'cpu';
    const def = (await ctx.catalogue.definitions()).get(session.problem_name);
    const tp = torchJobProblem(payload, def, { kind } as Parameters<typeof torchJobProblem>[2]);
    if (tp) payload.torch_problem = tp;
  }
  await enqueueJob(tx, {
    kind: 'evaluate',
    payload,
    device: session.device,
    maxAttempts: ctx.config.jobs.maxTries,
    dedupeKey: sweepJobKey(row.id),
    priority: JOB_PRIORITY.laterAttempt,
    ownerId: session.owner_id,
  });
  await tx.query(`UPDATE sweep_problems SET status = 'evaluating', best_attempt_id = $2 WHERE id = $1`, [
    row.id,
    best.id,
  ]);
}

/** A ranked re-run's result: correct when accepted, with its paired speedup (and interval) over the reference. */
export async function recordSweepEvaluation(tx: Sql, sweepProblemId: string, state: EvaluationState): Promise<void> {
  const correct = state.verdict === 'accepted';
  const bench = correct ? state.benchmarking_result : null;
  await tx.query(
    `UPDATE sweep_problems SET status = 'evaluated', correct = $2, speedup = $3, speedup_interval = $4, verdict = $5,
       evaluated_at = now() WHERE id = $1 AND status = 'evaluating'`,
    [
      sweepProblemId,
      correct && bench != null,
      bench?.speedup ?? null,
      bench?.speedup_interval ? JSON.stringify(bench.speedup_interval) : null,
      state.verdict,
    ],
  );
}

/** The ranked re-run ran out of tries: the problem failed (and counts as not correct). */
export async function failSweepEvaluation(tx: Sql, sweepProblemId: string, reason: string): Promise<void> {
  await tx.query(
    `UPDATE sweep_problems SET status = 'failed', error = $2, evaluated_at = now() WHERE id = $1 AND status = 'evaluating'`,
    [sweepProblemId, `Ranked evaluation failed: ${reason}`],
  );
}
