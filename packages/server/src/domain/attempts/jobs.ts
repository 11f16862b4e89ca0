// The jobs an attempt's transitions call for (its `generate` job when it is queued, its `evaluate` job when it is
// evaluating, built by the one evaluation-job factory, evaluation/jobs.ts), enqueued in the caller's transaction. Imported only by lifecycle.ts, the attempt
// lifecycle's owner: nothing else enqueues attempt jobs.
import type { EvaluationJobPayload, Language } from '@kernelforge/sdk';
import type { AppContext } from '../../context.js';
import type { AttemptRow, SessionRow } from '../../db/rows.js';
import type { Sql } from '../../db/sql.js';
import { enqueueJob } from '../../jobs/queue.js';
import { enqueueEvaluation } from '../evaluation/jobs.js';
import { JOB_PRIORITY } from '../../jobs/types.js';

/** What of its session an attempt's jobs are made from (the caller holds the session row's lock). */
export type AttemptSession = Pick<SessionRow, 'id' | 'owner_id' | 'problem_name' | 'custom_problem' | 'device'>;

/** The language attempts of a session are written in: a pytorch problem's is `pytorch`; else the device decides, a custom problem may say. */
export function sessionLanguage(
  session: Pick<SessionRow, 'device' | 'custom_problem'>,
  problemKind: 'c' | 'pytorch' = 'c',
): Language {
  if (problemKind === 'pytorch') return 'pytorch';
  if (session.device.startsWith('cuda')) return 'cuda';
  const custom = session.custom_problem as { language?: Language } | null;
  return custom?.language && custom.language !== 'cuda' ? custom.language : 'c';
}

/** The kind of the session's problem: a custom problem is C; a catalogue one says. */
export async function problemKind(
  ctx: AppContext,
  session: Pick<SessionRow, 'problem_name' | 'custom_problem'>,
): Promise<'c' | 'pytorch'> {
  if (session.custom_problem) return 'c';
  return (await ctx.catalogue.find(session.problem_name))?.kind ?? 'c';
}

/** Enqueues the generate job of a queued attempt. */
export async function enqueueGenerate(
  ctx: AppContext,
  tx: Sql,
  session: AttemptSession,
  attempt: AttemptRow,
): Promise<void> {
  await enqueueJob(tx, {
    kind: 'generate',
    payload: { attempt_id: attempt.id },
    sessionId: session.id,
    maxAttempts: ctx.config.jobs.maxTries,
    dedupeKey: `generate:${attempt.id}`,
    priority: await attemptPriority(tx, attempt),
    ownerId: session.owner_id,
  });
}

/** Enqueues the evaluation of an evaluating attempt (its source known) on the session's device. */
export async function enqueueEvaluate(
  ctx: AppContext,
  tx: Sql,
  session: AttemptSession,
  attempt: AttemptRow,
): Promise<void> {
  await enqueueEvaluation(ctx, tx, {
    kind: 'attempt',
    targetId: attempt.id,
    problemName: session.problem_name,
    device: session.device,
    language: attempt.language as Language,
    source: attempt.source ?? '',
    customProblem: (session.custom_problem as EvaluationJobPayload['custom_problem']) ?? undefined,
    sessionId: session.id,
    ownerId: session.owner_id,
    priority: await attemptPriority(tx, attempt),
  });
}

/** The first attempt of an instruction answers a user who just asked; later ones are the session grinding on. */
async function attemptPriority(tx: Sql, attempt: AttemptRow): Promise<number> {
  if (!attempt.instruction_id) return JOB_PRIORITY.laterAttempt;
  const [row] = await tx.query<{ first: boolean }>(
    `SELECT NOT EXISTS (SELECT 1 FROM generation_attempts WHERE instruction_id = $1 AND attempt_number < $2) AS first`,
    [attempt.instruction_id, attempt.attempt_number],
  );
  return row?.first ? JOB_PRIORITY.firstAttempt : JOB_PRIORITY.laterAttempt;
}
