// Where a submission's evaluation lands (its EvaluationTarget): the submission mirrors its one evaluate job
// (lifecycle.ts): `evaluating` while leased, `queued` again when requeued, final on a result or a dead job.
import type { EvaluationTarget } from '../evaluation/target.js';
import {
  markSubmissionCompleted,
  markSubmissionEvaluating,
  markSubmissionFailed,
  markSubmissionQueued,
} from './lifecycle.js';
import { mailResult } from './result-mail.js';

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
  // The owner's mail (result-mail.ts), once the outcome is written: it neither delays nor fails the write.
  afterOutcome(ctx, submissionId) {
    void mailResult(ctx, submissionId);
  },
};
