// The parts of a report both harnesses (the C one, backends/c-abi/report-json.ts; the torch one,
// backends/torch/report.ts) print alike.
import { z } from 'zod';

const num = z.number().nullable();

/** Verdicts a harness (the C one or the torch one) gives. */
export const HarnessVerdict = z.enum([
  'accepted',
  'incorrect',
  'nondeterministic',
  'rejected',
  'runtime_error',
  'timeout',
]);

/** One correctness check as either harness reports it. */
export const CorrectnessRow = z.object({
  name: z.string(),
  sizes: z.record(z.string(), z.number()),
  seed: z.number(),
  distribution: z.string(),
  passed: z.boolean(),
  max_abs_error: num,
  mean_abs_error: num,
  max_rel_error: num,
  mean_rel_error: num,
  message: z.string().optional(),
});
