// The one place evaluate jobs are built: an attempt's benchmark run, a submission's ranked run and a sweep problem's
// ranked re-run all come through `enqueueEvaluation`, which makes the payload (its mode, its secret seed, a custom
// problem, a pytorch problem's file and sizes) and enqueues it in the caller's transaction. Where its result lands
// is the target's (targets.ts).
import { torchJobProblem } from '@kernelforge/runner';
import type { EvaluationJobPayload, Language } from '@kernelforge/sdk';
import type { AppContext } from '../../context.js';
import { leaderboardSeed } from '../../db/seeds.js';
import type { Sql } from '../../db/sql.js';
import { enqueueJob } from '../../jobs/queue.js';

/** What an evaluate job is for: an attempt, a submission, a sweep problem (`payload.kind`). */
export type EvaluationTargetKind = EvaluationJobPayload['kind'];

/** How each target is run: an attempt benchmarked; a submission and a sweep's re-run ranked, with the board's seed. */
export const EVALUATION_MODE = {
  attempt: 'benchmark',
  submission: 'ranked',
  sweep: 'ranked',
} as const satisfies Record<EvaluationTargetKind, EvaluationJobPayload['mode']>;

/** The dedupe key of a target's evaluate job (a Stop cancels queued ones by it). */
export const evaluationJobKey = (kind: EvaluationTargetKind, targetId: string) => `evaluate:${kind}:${targetId}`;

export interface EvaluationJob {
  kind: EvaluationTargetKind;
  targetId: string;
  problemName: string;
  device: string;
  language: Language;
  source: string;
  customProblem?: EvaluationJobPayload['custom_problem'] | undefined;
  /** The attempt's session (a Stop of the session cancels the job); none for submissions and sweep re-runs. */
  sessionId?: string | undefined;
  ownerId: string;
  priority: number;
  /** Overrides the target's mode: a submission's test run ("Run tests") is benchmarked, never ranked. */
  mode?: 'benchmark' | undefined;
}

/** Builds the evaluate job's payload and enqueues it in `tx`; its id, or null when it was already queued. */
export async function enqueueEvaluation(ctx: AppContext, tx: Sql, job: EvaluationJob): Promise<string | null> {
  const mode = job.mode ?? EVALUATION_MODE[job.kind];
  const payload: EvaluationJobPayload = {
    kind: job.kind,
    target_id: job.targetId,
    mode,
    problem_name: job.problemName,
    device: job.device,
    language: job.language,
    source: job.source,
    ...(mode === 'ranked' ? { secret_seed: await leaderboardSeed(tx, job.problemName, job.device) } : {}),
    ...(job.customProblem ? { custom_problem: job.customProblem } : {}),
  };
  // A pytorch problem travels with its job (its file and this device's sizes): a remote runner may not have it.
  if (!job.customProblem && (await ctx.catalogue.find(job.problemName))?.kind === 'pytorch') {
    // Only the device's kind picks the sizes; no device lookup here (it would query outside `tx`, and PGlite's
    // single connection is held by this transaction).
    const kind = job.device.startsWith('cuda') ? 'cuda' : 'cpu';
    const def = (await ctx.catalogue.definitions()).get(job.problemName);
    const tp = torchJobProblem(payload, def, { kind } as Parameters<typeof torchJobProblem>[2]);
    if (tp) payload.torch_problem = tp;
  }
  return enqueueJob(tx, {
    kind: 'evaluate',
    payload,
    device: job.device,
    ...(job.sessionId ? { sessionId: job.sessionId } : {}),
    maxAttempts: ctx.config.jobs.maxTries,
    dedupeKey: evaluationJobKey(job.kind, job.targetId),
    priority: job.priority,
    ownerId: job.ownerId,
  });
}
