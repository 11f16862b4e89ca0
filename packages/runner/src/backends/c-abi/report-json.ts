// The JSON the C harness prints, parsed with zod so a malformed report is an error, not a guess.
import { z } from 'zod';
import { CorrectnessRow, HarnessVerdict } from '../../evaluate/report-rows.js';

const num = z.number().nullable();

export const HarnessReportSchema = z.object({
  /** What stopped the harness (a code of src/evaluate/judge/facts.ts, which decides the verdict); absent when
      nothing did. */
  fact: z.string().optional(),
  /** The harness's own reading of the fact: compared with the judge's, never used otherwise. */
  verdict: HarnessVerdict,
  message: z.string(),
  nop_ms: num,
  /** The 90th percentile of the 33 no-op round trips: how late a wake-up runs on this machine right now. */
  nop_p90_ms: num.optional(),
  correctness: z.array(CorrectnessRow),
  bench: z
    .array(
      z.object({
        name: z.string(),
        sizes: z.record(z.string(), z.number()),
        checked: z.number(),
        /** Calls flagged for work outside their timed window (not among the samples; the judge counts them). */
        flagged: z.number().int().nonnegative().optional(),
        optimized: z.array(z.number()),
        baseline: z.array(z.number()),
        inside: z.array(z.number()),
        /** Per clean pair, baseline time over candidate time (the candidate's and the baseline's calls of one
            sample, on the same inputs, side by side). */
        ratios: z.array(z.number()).optional(),
        /** cuda: `optimized` and `baseline` are the stubs' events; these run from sending RUN to the harness's
            probe's verified answer (to the reply where the probe did not read that worker's data). */
        outside: z.array(z.number()).optional(),
        baseline_outside: z.array(z.number()).optional(),
        /** cuda: pairs taken again, or kept, with an SM clock under 75% of its top; samples whose device sat idle
            before the call (the stub's events) and the longest such gap. */
        low_clock_retaken: z.number().int().nonnegative().optional(),
        low_clock_kept: z.number().int().nonnegative().optional(),
        idle_samples: z.number().int().nonnegative().optional(),
        idle_max_us: z.number().optional(),
      }),
    )
    .default([]),
  /** The timed phase: other work on the machine meanwhile (cores, measured from outside the sandbox) and the
      host-wide timing lock. Absent when nothing was timed. */
  load: z
    .object({
      outside_cores: z.number(),
      cores: z.number(),
      wall_ms: z.number(),
      lock: z.boolean(),
      lock_wait_ms: z.number(),
      lock_gave_up: z.boolean(),
      /** The candidate's (and the baseline's) time runnable but waiting for a cpu over the timed samples, as a
          share of that and their cpu time (schedstat). */
      wait_share: z.number().optional(),
      baseline_wait_share: z.number().optional(),
      retaken_pairs: z.number().int().nonnegative().optional(),
      waited_pairs_kept: z.number().int().nonnegative().optional(),
      /** The core budget: how many cpus the candidate and the baseline were both confined to, and which. */
      budget_cores: z.number().int().positive().optional(),
      budget_cpus: z.string().max(128).optional(),
      budget_resets: z.number().int().nonnegative().optional(),
    })
    .optional(),
  /** cuda: whether the harness's probe read each worker's device data (c/harness_probe.c), the device's busy time
      before each call (us), the SM clock's range over the run (MHz, 0: unknown) and why the probe is missing. */
  probe: z
    .object({
      candidate: z.boolean(),
      baseline: z.boolean(),
      busy_us: z.number(),
      min_sm_mhz: z.number(),
      max_sm_mhz: z.number(),
      why: z.string(),
    })
    .optional(),
  /** Where the harness's time went (ms, and sample counts). */
  profile: z.record(z.string(), z.number()).optional(),
});
export type HarnessReport = z.infer<typeof HarnessReportSchema>;
