// Where a submission's ranked evaluation stands while it is not finished: its place in the device's queue, or which
// part runs now and how long evaluations like it usually take (GET /api/v1/submission/{id}/progress).
import { z } from 'zod';
import { EvaluationProgress } from './runner.js';
import { QueuePosition } from './session.js';

export const SubmissionProgress = z.object({
  /** queued (its job waits for a runner), evaluating (a runner holds it), or null once it is finished. */
  phase: z.enum(['queued', 'evaluating']).nullable(),
  /** While it waits: the evaluations on this device the claim order takes first, and those running now. */
  queue: QueuePosition.nullable(),
  /** How long the runner has held it; null while it waits. */
  phase_elapsed_seconds: z.number().nonnegative().nullable(),
  /** The typical duration minus the elapsed time, floored at 0; null while waiting or unknown. */
  estimate_seconds: z.number().nonnegative().nullable(),
  /** The median duration of recent ranked evaluations of this problem on this device; null when there are none. */
  typical_seconds: z.number().nonnegative().nullable(),
  /** Which part runs now (compiling, checking case i of n, timing case i of n), as its runner last reported it. */
  evaluation: EvaluationProgress.nullable(),
  /** Why it waits again after a try ended without a result (a runner gone silent, an error); null otherwise. */
  notice: z.string().nullable(),
});
export type SubmissionProgress = z.infer<typeof SubmissionProgress>;
