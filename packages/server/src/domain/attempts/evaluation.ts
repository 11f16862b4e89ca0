// Where an attempt's evaluation lands (its EvaluationTarget): the result completes the attempt and adds its runner time
// to the session; either way the instruction goes on with its next attempt.
import type { EvaluationTarget } from '../evaluation/target.js';
import { continueInstruction } from '../sessions/instruction-chain.js';
import { markCompleted, markFailed } from './lifecycle.js';

export const attemptEvaluation: EvaluationTarget = {
  async onResult(ctx, tx, attemptId, state) {
    const attempt = await markCompleted(ctx, tx, attemptId, state);
    if (!attempt) return;
    await tx.query('UPDATE agent_sessions SET runner_seconds = runner_seconds + $2, updated_at = now() WHERE id = $1', [
      attempt.session_id,
      state.runner_seconds,
    ]);
    await continueInstruction(ctx, tx, attempt.session_id, attempt.instruction_id);
  },
  async onDead(ctx, tx, attemptId, reason) {
    const attempt = await markFailed(ctx, tx, attemptId, `Evaluation failed: ${reason}`);
    // The runner failing is not the candidate's fault: the instruction goes on with its next attempt.
    if (attempt) await continueInstruction(ctx, tx, attempt.session_id, attempt.instruction_id);
  },
};
