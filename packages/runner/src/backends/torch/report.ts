// The torch harness's report (py/kforge_torch/harness.py prints it: facts, as the C harness's) and its reading into the
// sdk EvaluationState. Every rule that decides the verdict and the figures is the judge's (judge.ts).
import type { CompileReport, Device, EvaluationJobPayload, EvaluationState } from '@kernelforge/sdk';
import { z } from 'zod';
import { deviceLlcBytes } from '../../devices/cpu.js';
import { CorrectnessRow, HarnessVerdict } from '../../evaluate/report-rows.js';
import { judgeTimed } from '../../evaluate/judge.js';
import { judgeFailure } from '../../evaluate/judge/facts.js';

export const TorchReport = z.object({
  /** What the harness saw stop it (judge/facts.ts decides its verdict); absent when nothing did. */
  fact: z.string().optional(),
  /** The harness's own reading of the fact: compared with the judge's, never used. */
  verdict: HarnessVerdict,
  message: z.string(),
  correctness: z.array(CorrectnessRow),
  // Facts, as the C harness reports them: clean samples (ms), flagged calls, load. The judge decides.
  bench: z.array(
    z.object({
      name: z.string(),
      sizes: z.record(z.string(), z.number()),
      optimized: z.array(z.number()),
      baseline: z.array(z.number()),
      compiled: z.array(z.number()).nullable().optional(),
      flagged: z.number().int().nonnegative(),
      /** Eager baseline over candidate time per clean iteration (paired, same inputs). */
      ratios: z.array(z.number()).optional(),
      /** Bytes of the parameters, inputs and outputs (the least traffic a call needs). */
      bytes: z.number().nonnegative().optional(),
      /** The staged path (cuda): the no-op round trip subtracted from every outside time, and each worker's own
          event times per counted call (facts beside the outside times; never ranked). */
      nop_ms: z.number().nonnegative().optional(),
      inside: z.array(z.number()).optional(),
      baseline_inside: z.array(z.number()).optional(),
      /** The staged path: the untimed prepare and fetch round trips around each counted call (ms), the candidate's
          and the eager baseline's; the judge holds the first to the second (stagedTrust in judge.ts). */
      untimed: z.array(z.number()).optional(),
      baseline_untimed: z.array(z.number()).optional(),
      /** The same steps' process cpu (ms): what the judge holds together on a cpu device, where load adds wall time. */
      untimed_cpu: z.array(z.number()).optional(),
      baseline_untimed_cpu: z.array(z.number()).optional(),
    }),
  ),
  load: z
    .object({
      outside_cores: z.number(),
      cores: z.number(),
      wall_ms: z.number(),
      lock: z.boolean(),
      lock_wait_ms: z.number(),
      lock_gave_up: z.boolean().optional(),
      wait_share: z.number().optional(),
      baseline_wait_share: z.number().optional(),
      retaken_pairs: z.number().int().nonnegative().optional(),
      waited_pairs_kept: z.number().int().nonnegative().optional(),
      budget_cores: z.number().int().positive().optional(),
      budget_cpus: z.string().max(128).optional(),
      budget_resets: z.number().int().nonnegative().optional(),
    })
    .optional(),
  compiled_note: z.string().optional(),
  toolchains: z.record(z.string(), z.string()).optional(),
  profile: z.record(z.string(), z.number()).optional(),
  /** The candidate's torch facts as its worker gave them once the timed phase was over (a cpu device): JSON the
      harness did not read, checked by parseTorchFacts; or why there are none. Untrusted, and they judge nothing. */
  facts: z.string().max(300_000).optional(),
  facts_error: z.string().max(1000).optional(),
});
export type TorchReport = z.infer<typeof TorchReport>;

/** The harness's stdout as a report, or null when it is not one. */
export function parseTorchReport(stdout: string): TorchReport | null {
  try {
    return TorchReport.parse(JSON.parse(stdout));
  } catch {
    return null;
  }
}

export function stateFromTorchReport(
  report: TorchReport,
  a: {
    base: { mode: EvaluationJobPayload['mode']; evaluated_at: string };
    compile: CompileReport | null;
    environment: EvaluationState['environment'];
    ranked: boolean;
    elapsed: () => number;
    output: { stdout?: string; stderr?: string };
    benchConstants: Record<string, number>;
    device: Device;
    timedRuns: number;
    /** The static scan's findings: they flag an accepted result for review. */
    reviewReasons: readonly string[];
    /** The compiled baseline's name: TorchScript freeze (cpu) or torch.compile (cuda). */
    compiledName?: string;
  },
): EvaluationState {
  const environment = a.environment
    ? { ...a.environment, toolchains: { ...(a.environment.toolchains ?? {}), ...(report.toolchains ?? {}) } }
    : undefined;
  const common = {
    ...a.base,
    compile: a.compile,
    correctness: {
      passed: report.verdict === 'accepted',
      // A ranked seed is the submission's secret: no report carries it.
      cases: report.correctness.map(({ seed, ...rest }) => (a.ranked ? rest : { seed, ...rest })),
    },
    ...a.output,
    ...(environment ? { environment } : {}),
    runner_seconds: a.elapsed(),
    sizes_used: a.benchConstants,
  };
  const failure = judgeFailure(report);
  if (failure?.mismatch)
    return {
      ...common,
      correctness: { ...common.correctness, passed: false },
      verdict: 'runtime_error',
      message: `runtime_error: ${failure.mismatch}: ${report.message}`,
      benchmarking_result: null,
    };
  if (failure) return { ...common, verdict: failure.verdict, message: report.message, benchmarking_result: null };
  const { verdict, message, result } = judgeTimed({
    device: a.device,
    ranked: a.ranked,
    cases: judgedCases(report, a.device.kind === 'cpu' ? deviceLlcBytes(a.device) : 0, a.device.kind === 'cuda'),
    load: report.load,
    timedRuns: a.timedRuns,
    reviewReasons: a.reviewReasons,
    baselineName: 'the reference in eager PyTorch',
    compiledName: a.compiledName ?? 'TorchScript freeze',
  });
  return {
    ...common,
    verdict,
    message,
    benchmarking_result: {
      ...result,
      compiled_baseline: a.compiledName === 'torch.compile' ? 'torch-compile' : 'torchscript-freeze',
      ...(report.compiled_note ? { compiled_note: report.compiled_note } : {}),
    },
  };
}

/**
 * The report's cases as the judge reads them. Bandwidth from the least traffic a call needs (its tensors read or
 * written once); flops are not known for a PyTorch module, so they stay 0 and the fraction of peak is the
 * bandwidth's. Nothing flushes the caches between calls here, so the roofline floor holds only for cases whose data
 * is at least twice the last-level cache.
 */
function judgedCases(report: TorchReport, llc: number, flushed = false) {
  return report.bench.map((b) => ({
    name: b.name,
    sizes: b.sizes,
    optimized: b.optimized,
    baseline: b.baseline,
    compiled: b.compiled ?? null,
    flagged: b.flagged,
    ratios: b.ratios,
    // The untimed staged steps: wall time on a GPU (its host is not the contended resource; work moved there is
    // device work, which host cpu may not show), process cpu on a cpu (load adds wall time, not cpu).
    untimed: flushed ? b.untimed : b.untimed_cpu,
    baselineUntimed: flushed ? b.baseline_untimed : b.baseline_untimed_cpu,
    untimedClock: flushed ? ('wall' as const) : ('cpu' as const),
    bytes: b.bytes ?? 0,
    flops: 0,
    // On a GPU every timed call follows an L2 flush: its data comes from memory.
    cacheCold: flushed || (llc > 0 && (b.bytes ?? 0) >= 2 * llc),
    llcBytes: llc,
  }));
}
