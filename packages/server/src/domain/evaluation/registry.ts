// The registry of evaluation targets: one per `payload.kind` of an evaluate job. results.ts routes claims, requeues,
// results and dead jobs through it instead of branching on the kind.
import type { EvaluationJobPayload } from '@kernelforge/sdk';
import type { Job } from '../../jobs/types.js';
import { attemptEvaluation } from '../attempts/evaluation.js';
import { submissionEvaluation } from '../submissions/evaluation.js';
import { sweepEvaluation } from '../sweeps/scoring.js';
import type { EvaluationTarget } from './target.js';

export const EVALUATION_TARGETS: Record<EvaluationJobPayload['kind'], EvaluationTarget> = {
  attempt: attemptEvaluation,
  submission: submissionEvaluation,
  sweep: sweepEvaluation,
};

/** An evaluate job's target and its id. */
export function targetOf(job: Pick<Job, 'payload'>): { target: EvaluationTarget; id: string } {
  const payload = job.payload as unknown as EvaluationJobPayload;
  return { target: EVALUATION_TARGETS[payload.kind], id: payload.target_id };
}
