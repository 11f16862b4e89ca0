// The one owner of a sweep problem's lifecycle: every write of `sweep_problems.status` goes through here.
import type { Sql } from '../../db/sql.js';

/** A sweep problem as stored (the API shows it otherwise: service.ts `problemStatus` reads it with its session's). */
export type SweepProblemStatus = 'pending' | 'evaluating' | 'evaluated' | 'failed' | 'stopped';

/**
 * The legal moves, as the statuses each target may be reached from: pending (its session at work) -> evaluating
 * (the ranked re-run of its best attempt queued, scoring.ts) -> evaluated | failed; pending -> evaluated at once when
 * no attempt was accepted; pending | evaluating -> stopped (the sweep's Stop, an administrator's cancel).
 * Every move is an UPDATE guarded by these statuses (a caller may narrow them): an illegal one changes nothing,
 * because each is an expected race (a late result for a stopped problem, a Stop after scoring).
 * Creating a problem (`insertSweepProblem`) writes `pending` (the column's default).
 */
export const SWEEP_PROBLEM_TRANSITIONS = {
  evaluating: ['pending'],
  evaluated: ['pending', 'evaluating'],
  failed: ['evaluating'],
  stopped: ['pending', 'evaluating'],
} as const satisfies Record<Exclude<SweepProblemStatus, 'pending'>, readonly SweepProblemStatus[]>;

type Target = keyof typeof SWEEP_PROBLEM_TRANSITIONS;

const inList = (statuses: readonly string[]) => `(${statuses.map((s) => `'${s}'`).join(', ')})`;

/** One guarded UPDATE to `to` of the rows `where` picks (its parameters from $1); the rows that moved. */
async function transition<T extends Target>(
  tx: Sql,
  to: T,
  where: string,
  params: unknown[],
  opts: { set?: string; from?: readonly (typeof SWEEP_PROBLEM_TRANSITIONS)[T][number][]; returning?: string } = {},
): Promise<{ id: string; sweep_id: string }[]> {
  const from = opts.from ?? SWEEP_PROBLEM_TRANSITIONS[to];
  return tx.query<{ id: string; sweep_id: string }>(
    `UPDATE sweep_problems SET status = '${to}'${opts.set ? `, ${opts.set}` : ''}
     WHERE (${where}) AND status IN ${inList(from)} RETURNING id, sweep_id`,
    params,
  );
}

/** A new problem of a sweep, `pending` while its session works. */
export async function insertSweepProblem(
  tx: Sql,
  values: { sweepId: string; position: number; problemName: string; sessionId: string },
): Promise<void> {
  await tx.query(
    `INSERT INTO sweep_problems (sweep_id, position, problem_name, session_id, status) VALUES ($1, $2, $3, $4, 'pending')`,
    [values.sweepId, values.position, values.problemName, values.sessionId],
  );
}

/** Its best attempt's ranked re-run is queued. */
export async function markSweepProblemEvaluating(tx: Sql, id: string, bestAttemptId: string): Promise<void> {
  await transition(tx, 'evaluating', 'id = $1', [id, bestAttemptId], { set: 'best_attempt_id = $2' });
}

/** Scored not correct without a re-run: no attempt was accepted (`verdict` says what the best one got). */
export async function markSweepProblemUnscored(
  tx: Sql,
  id: string,
  bestAttemptId: string | null,
  verdict: string,
): Promise<void> {
  await transition(tx, 'evaluated', 'id = $1', [id, bestAttemptId, verdict], {
    set: 'best_attempt_id = $2, correct = false, verdict = $3, evaluated_at = now()',
    from: ['pending'],
  });
}

/** The re-run's result: correct or not, with its paired speedup (and interval) over the reference. */
export async function markSweepProblemEvaluated(
  tx: Sql,
  id: string,
  figures: { correct: boolean; speedup: number | null; speedupInterval: unknown; verdict: string },
): Promise<void> {
  await transition(
    tx,
    'evaluated',
    'id = $1',
    [
      id,
      figures.correct,
      figures.speedup,
      figures.speedupInterval ? JSON.stringify(figures.speedupInterval) : null,
      figures.verdict,
    ],
    {
      set: 'correct = $2, speedup = $3, speedup_interval = $4, verdict = $5, evaluated_at = now()',
      from: ['evaluating'],
    },
  );
}

/** The re-run ran out of tries: the problem failed (and counts as not correct). */
export async function markSweepProblemFailed(tx: Sql, id: string, error: string): Promise<void> {
  await transition(tx, 'failed', 'id = $1', [id, error], { set: 'error = $2, evaluated_at = now()' });
}

/**
 * A sweep's Stop: its problems still pending, and those whose queued re-runs were cancelled (`cancelledIds`), stop;
 * a re-run a runner holds finishes and is scored.
 */
export async function stopSweepProblems(tx: Sql, sweepId: string, cancelledIds: string[]): Promise<void> {
  await transition(tx, 'stopped', `sweep_id = $1 AND (status = 'pending' OR id::text = ANY($2::text[]))`, [
    sweepId,
    cancelledIds,
  ]);
}

/** An administrator cancelled the problem's re-run: it stops; its sweep's id, when it moved. */
export async function stopSweepProblemRun(tx: Sql, id: string): Promise<string | null> {
  const [row] = await transition(tx, 'stopped', 'id = $1', [id], { from: ['evaluating'] });
  return row?.sweep_id ?? null;
}
