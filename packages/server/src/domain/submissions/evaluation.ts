// Where a submission's evaluation lands (its EvaluationTarget): the submission mirrors its one evaluate job
// (lifecycle.ts): `evaluating` while leased, `queued` again when requeued, final on a result or a dead job.
import type { EvaluationTarget } from '../evaluation/target.js';
import {
  markSubmissionCompleted,
  markSubmissionEvaluating,
  markSubmissionFailed,
  markSubmissionQueued,
} from './lifecycle.js';

export const submissionEvaluation: EvaluationTarget = {
  async onClaim(tx, submissionId) {
    await markSubmissionEvaluating(tx, submissionId);
  },
  async onRequeue(tx, submissionId, lastError) {
    await markSubmissionQueued(tx, submissionId, lastError);
  },
  async onResult(_ctx, tx, submissionId, state) {
    await markSubmissionCompleted(tx, submissionId, state);
  },
  async onDead(_ctx, tx, submissionId, reason) {
    await markSubmissionFailed(tx, submissionId, `Evaluation failed: ${reason}`);
  },
};
