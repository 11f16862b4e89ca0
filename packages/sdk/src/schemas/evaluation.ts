// The runner's report on one candidate (DESIGN sections 3 and 6). Times are milliseconds.
import { z } from 'zod';
import { Text } from './common.js';

export const Verdict = z.enum([
  'accepted',
  'compile_error',
  'compile_timeout',
  'runtime_error',
  'timeout',
  'incorrect',
  'nondeterministic',
  'implausible',
  'rejected',
]);
export type Verdict = z.infer<typeof Verdict>;

export const EvaluationMode = z.enum(['benchmark', 'ranked']);
export type EvaluationMode = z.infer<typeof EvaluationMode>;

/** One loop of the candidate's source in the compiler's vectorization report (gcc -fopt-info-vec-all). */
export const VectorizationLoop = z.object({
  line: z.number().int(),
  column: z.number().int(),
  vectorized: z.boolean(),
  /** Vector widths in bytes gcc used for it ("loop vectorized using 32 byte vectors"); a main loop and its epilogue
      can give two. Empty when it was not vectorized. */
  widths: z.array(z.number().int()),
  /** Why not ("control flow in loop."), or gcc's remarks on a vectorized loop ("loop versioned ... aliasing"). */
  reasons: z.array(Text.max(300)),
});
export type VectorizationLoop = z.infer<typeof VectorizationLoop>;

/** Lines [start_line, end_line] (1-based, inclusive) of `BuildFacts.assembly`: the innermost loop (a backward
    branch) that uses the widest vector registers. */
export const HotLoop = z.object({
  start_line: z.number().int().positive(),
  end_line: z.number().int().positive(),
  function: Text.max(300),
  /** Widest vector register in it (128 xmm, 256 ymm, 512 zmm); null when it is scalar. */
  vector_bits: z.number().int().nullable(),
});
export type HotLoop = z.infer<typeof HotLoop>;

/** Hardware counters of one extra, untimed run; on machines where none can be read, the reason why. */
export const HardwareCounters = z.object({
  available: z.boolean(),
  reason: Text.max(500).optional(),
  values: z.record(Text.max(60), z.number()).optional(),
});
export type HardwareCounters = z.infer<typeof HardwareCounters>;

/** The theoretical occupancy of a kernel for one block size, after cuda_occupancy.h: resident blocks per SM as the least
    of the warp, register, shared-memory and block limits of the target's compute capability. */
export const CudaOccupancy = z.object({
  block_size: z.number().int().positive(),
  /** Where the block size comes from: the source's launch (`<<<grid, 256>>>`), `__launch_bounds__`/`.reqntid`, or
      an assumed size when neither gives it. */
  basis: Text.max(300),
  blocks_per_sm: z.number().int().nonnegative(),
  warps_per_sm: z.number().int().nonnegative(),
  max_warps_per_sm: z.number().int().positive(),
  /** warps_per_sm / max_warps_per_sm, 0..1. */
  occupancy: z.number().min(0).max(1),
  /** What bounds the blocks per SM: `warps`, `registers`, `shared memory`, `blocks`, `barriers`, or `none fit (...)`
      (0 blocks). */
  limiter: Text.max(60),
});
export type CudaOccupancy = z.infer<typeof CudaOccupancy>;

/** One kernel (`__global__` entry) as ptxas compiled it, from its resource usage (`-Xptxas -v`). */
export const CudaKernelFacts = z.object({
  /** Demangled (`tiled<256>(float const*, float*, int)`). */
  name: Text.max(1000),
  mangled: Text.max(1000),
  registers: z.number().int().nonnegative(),
  /** Bytes of local memory per thread (stack frame: spills and local arrays). */
  stack_bytes: z.number().int().nonnegative(),
  spill_store_bytes: z.number().int().nonnegative(),
  spill_load_bytes: z.number().int().nonnegative(),
  /** Static shared memory per block (dynamic shared memory is a launch's, not the compiler's). */
  shared_bytes: z.number().int().nonnegative(),
  /** Constant banks ptxas reports for the kernel (cmem[0]: parameters), null where this ptxas prints none (sm_90+
      under CUDA 13). */
  constant_bytes: z.number().int().nonnegative().nullable(),
  barriers: z.number().int().nonnegative().nullable(),
  /** `__launch_bounds__` maximum threads per block (PTX .maxntid/.reqntid), null without. */
  max_threads: z.number().int().positive().nullable(),
  occupancy: z.array(CudaOccupancy),
});
export type CudaKernelFacts = z.infer<typeof CudaKernelFacts>;

/** A cuda candidate's device code facts (docs/evaluation.md "Build facts"). */
export const CudaBuildFacts = z.object({
  /** ptxas's target, e.g. `sm_90`. */
  arch: Text.max(20),
  kernels: z.array(CudaKernelFacts),
  /** Bytes of user `__constant__` memory of the module (ptxas's cmem[3]/[4], or the PTX's .const declarations). */
  user_constant_bytes: z.number().int().nonnegative().nullable(),
  /** What `assembly` holds: SASS (cuobjdump, where the runner has it) or the PTX that ptxas compiled. */
  assembly_kind: z.enum(['sass', 'ptx']),
  /** Where the per-arch limits of the occupancy come from. */
  limits_source: Text.max(500),
});
export type CudaBuildFacts = z.infer<typeof CudaBuildFacts>;

/** One operator (cpu) or kernel (cuda) one `ModelNew` call ran, from torch.profiler; times in ms. */
export const TorchOp = z.object({
  name: Text.max(300),
  calls: z.number().int().nonnegative(),
  /** cpu: the operator's self cpu time; cuda: the kernel's device time. */
  self_ms: z.number().nonnegative(),
  /** cpu: with the operators it called; cuda: as self_ms. */
  total_ms: z.number().nonnegative(),
});
export type TorchOp = z.infer<typeof TorchOp>;

/** One compiled Triton kernel of the candidate's module (its compiled kernel object's metadata). */
export const TritonKernelFacts = z.object({
  name: Text.max(300),
  /** False: the function was never compiled (not called in the profiled run). */
  compiled: z.boolean(),
  num_warps: z.number().int().nullable().optional(),
  num_stages: z.number().int().nullable().optional(),
  /** Shared memory per block, bytes. */
  shared_bytes: z.number().int().nullable().optional(),
  registers: z.number().int().nullable().optional(),
  spills: z.number().int().nullable().optional(),
  /** @triton.autotune's pick, as Triton prints it. */
  best_config: Text.max(300).nullable().optional(),
});
export type TritonKernelFacts = z.infer<typeof TritonKernelFacts>;

/** A PyTorch candidate's facts: what one `ModelNew` call launched (torch.profiler, one extra untimed run inside the
    candidate's sandbox) and its Triton kernels' metadata. */
export const TorchFacts = z.object({
  device: z.enum(['cpu', 'cuda']),
  torch_version: Text.max(60),
  /** `cpu_ops`: operators by self cpu time; `cuda_kernels`: kernels by device time. */
  kind: z.enum(['cpu_ops', 'cuda_kernels']),
  /** The profiled call's wall time (profiler overhead included: not a timed figure). */
  call_ms: z.number().nonnegative(),
  ops: z.array(TorchOp).max(40),
  /** How many distinct operators or kernels the call ran (ops holds the first 40 by time). */
  ops_total: z.number().int().nonnegative(),
  triton: z.array(TritonKernelFacts).max(50),
  /** Why `triton` is empty: Triton not installed, or no @triton.jit function in the candidate. */
  triton_reason: Text.max(300).optional(),
});
export type TorchFacts = z.infer<typeof TorchFacts>;

/** Why the candidate is as fast as it is: what the compiler made of it (docs/evaluation.md "Build facts"). Derived
    from the source, so another user's reader never sees it (figures only). */
export const BuildFacts = z.object({
  /** `solution` and the functions of the worker it reaches (calls, OpenMP outlined bodies), in that order; for cuda,
      the kernels (mangled names, as in the SASS or PTX). */
  symbols: z.array(Text.max(300)),
  /** objdump -d --no-show-raw-insn of those symbols, capped at 64 KiB; for cuda, their SASS or PTX (cuda.assembly_kind). */
  assembly: Text.max(70_000),
  assembly_truncated: z.boolean(),
  hot_loop: HotLoop.nullable(),
  /** The loops of the source, vectorized or not; null when the compiler gives no such report (nvcc, clang). */
  vectorization: z.array(VectorizationLoop).nullable(),
  counters: HardwareCounters,
  /** cuda candidates: per kernel registers, spills, shared memory and theoretical occupancy. */
  cuda: CudaBuildFacts.optional(),
  /** PyTorch candidates: the operators or kernels of one call and their Triton kernels' metadata (profiled after an
      accepted run; absent with a note where the profiled run failed). */
  torch: TorchFacts.optional(),
  /** What could not be gathered, and why. */
  notes: z.array(Text.max(500)).optional(),
});
export type BuildFacts = z.infer<typeof BuildFacts>;

/** The compile report's `compiler` where nothing was compiled (a PyTorch candidate that builds no extension): it
    exists only to carry the torch facts, and the web shows no compile log for it. */
export const NOTHING_COMPILED = 'none (nothing to compile)';

export const CompileReport = z.object({
  ok: z.boolean(),
  compiler: z.string(),
  flags: z.array(z.string()),
  log: z.string(),
  duration_ms: z.number(),
  /** C and C++ on the cpu: the assembly, vectorization report and counters (or why none); cuda: ptxas's resource usage
      per kernel, occupancy, SASS or PTX. Gathered in the compile sandbox after the compile; never part of the timed
      figures, never a cause of a verdict. */
  facts: BuildFacts.optional(),
});
export type CompileReport = z.infer<typeof CompileReport>;

export const CorrectnessCase = z.object({
  name: z.string(),
  sizes: z.record(z.string(), z.number()),
  /** The input seed (benchmark mode). Ranked reports carry none: ranked seeds stay secret. */
  seed: z.number().int().optional(),
  distribution: z.string(),
  passed: z.boolean(),
  max_abs_error: z.number().nullable(),
  mean_abs_error: z.number().nullable(),
  max_rel_error: z.number().nullable(),
  mean_rel_error: z.number().nullable(),
  /** Why it failed, e.g. `output y[17] is NaN (expected 0.25)`, `input x was modified`. */
  message: z.string().optional(),
});
export type CorrectnessCase = z.infer<typeof CorrectnessCase>;

export const CorrectnessReport = z.object({ passed: z.boolean(), cases: z.array(CorrectnessCase) });
export type CorrectnessReport = z.infer<typeof CorrectnessReport>;

export const TimingStats = z.object({
  mean_ms: z.number(),
  median_ms: z.number(),
  min_ms: z.number(),
  max_ms: z.number(),
  stddev_ms: z.number(),
  samples: z.number().int(),
});
export type TimingStats = z.infer<typeof TimingStats>;

/** A 95% interval [low, high]. */
export const Interval = z.tuple([z.number(), z.number()]);
export type Interval = z.infer<typeof Interval>;

/** Where a case's data sat against the last-level cache of the machine that timed it. */
export const CaseCache = z.object({
  /** What one call must move (the problem's bytes formula, or a module's tensors read or written once), bytes. */
  bytes: z.number().nonnegative(),
  /** The last-level cache one core of the timing machine sees, bytes. */
  llc_bytes: z.number().positive(),
  /** The case's data fits in the last-level cache. */
  fits_llc: z.boolean(),
  /** Each timed call read its data from memory: the caches were flushed before it, or its data is at least twice the
      last-level cache. When false the data may have been cache-resident, and the GB/s is not held to the memory
      bandwidth peak. */
  from_memory: z.boolean(),
});
export type CaseCache = z.infer<typeof CaseCache>;

export const BenchmarkCase = z.object({
  name: z.string(),
  /** The case's sizes; empty for a ranked run's hidden cases. */
  sizes: z.record(z.string(), z.number()),
  optimized: TimingStats,
  baseline: TimingStats,
  speedup: z.number(),
  gbps: z.number(),
  gflops: z.number(),
  /** The larger of achieved/peak bandwidth and achieved/peak flops. */
  fraction_of_peak: z.number(),
  fraction_of_peak_bandwidth: z.number(),
  fraction_of_peak_flops: z.number(),
  /** The candidate's own timing of the timed phase and the harness's timing from outside its process. */
  inside_ms: z.number().optional(),
  outside_ms: z.number().optional(),
  /** 95% interval of the case's speedup: the median of the ratios of its paired samples (baseline and candidate
      timed side by side on the same inputs). Absent with fewer than 6 pairs. */
  speedup_interval: Interval.optional(),
  /** 95% interval of the candidate's median time (ms). Absent with fewer than 6 samples. */
  optimized_interval: Interval.optional(),
  /** The case's data against the last-level cache (cpu devices; absent when the cache or the bytes are unknown). */
  cache: CaseCache.optional(),
});
export type BenchmarkCase = z.infer<typeof BenchmarkCase>;

/** The machine while the candidate was timed, measured by the runner from outside the sandbox. */
export const TimingLoad = z.object({
  /** Cores' worth of other work running on the machine during the timed phase. */
  outside_cores: z.number(),
  cores: z.number().int(),
  /** Whether the device's host-wide timing lock was held (one timing at a time per host and device). */
  lock: z.boolean(),
  lock_wait_ms: z.number(),
  /** More outside work than the runner accepts for a quiet measurement: the times may be inflated. */
  noisy: z.boolean(),
  /** How many times the benchmark phase was timed: a ranked run under heavy outside load is timed again once. */
  timed_runs: z.number().int().optional(),
  /** The share of the candidate's runnable time over the timed samples that it spent waiting for a cpu
      (schedstat's run delay over run delay plus cpu time): a neighbour on the machine, recorded as a condition. */
  wait_share: z.number().min(0).max(1).optional(),
  /** The same for the baseline, timed beside it. */
  baseline_wait_share: z.number().min(0).max(1).optional(),
  /** Timed pairs taken again because one of their two calls spent more than a fifth of its window waiting for a
      cpu (a neighbour, recorded as a condition rather than measured as a slowdown). */
  retaken_pairs: z.number().int().min(0).optional(),
  /** Pairs kept although a call waited that long: the bound on retaking (half the kept pairs plus two per case) was
      reached, so the machine stayed busy. */
  waited_pairs_kept: z.number().int().min(0).optional(),
  /** A ranked result first timed under heavy outside load is timed again later: how long (ms) it waited for the
      machine to quiet before the second timing (bounded; still busy then, it is timed anyway and flagged noisy). */
  retime_wait_ms: z.number().min(0).optional(),
  /** The core budget: the number of cpus the candidate and the baseline were both confined to (the ones free when
      the evaluation began; every cpu when none or all were), so a neighbour takes a core from both sides alike. */
  budget_cores: z.number().int().positive().optional(),
  /** Which cpus, as a list ("1", "0-3,6"). */
  budget_cpus: z.string().optional(),
  /** Times a thread of the candidate was found after a timed call on cpus outside a budget narrower than the
      machine (and set back): such a result is flagged for review. */
  budget_resets: z.number().int().min(0).optional(),
  /** A ranked result or a test run is timed twice, by two fresh harness processes: each run's speedup and optimized
      time (the published figures are the run with the lower speedup; the intervals hold both runs). */
  run_speedups: z.array(z.number()).optional(),
  run_times: z.array(z.number()).optional(),
});
export type TimingLoad = z.infer<typeof TimingLoad>;

export const BenchmarkingResult = z.object({
  /** Sum over the benchmark cases of the candidate's median time (ms). */
  optimized_time: z.number(),
  /** 95% interval of optimized_time (the sum of the cases' intervals). */
  optimized_time_interval: Interval.optional(),
  /** The same for the reference or library baseline, timed interleaved in the same run. */
  baseline_time: z.number(),
  /** Paired: from the ratios of baseline and candidate calls timed side by side on the same inputs. */
  speedup: z.number(),
  /** 95% interval of the speedup. Absent when a case had fewer than 6 pairs. */
  speedup_interval: Interval.optional(),
  gbps: z.number(),
  gflops: z.number(),
  fraction_of_peak: z.number(),
  cases: z.array(BenchmarkCase),
  /** Speedup over 10x or over 90% of peak: shown flagged on leaderboards. */
  flagged_for_review: z.boolean().default(false),
  review_reasons: z.array(z.string()).default([]),
  load: TimingLoad.optional(),
  /** pytorch problems: the reference compiled where the installed PyTorch can (TorchScript freeze on 1.x,
      `torch.compile` on 2.x), timed in the same run; null when it could not be compiled (`compiled_note` says why). */
  compiled_baseline_time: z.number().nullable().optional(),
  speedup_over_compiled: z.number().nullable().optional(),
  compiled_baseline: Text.max(100).optional(),
  compiled_note: Text.max(2000).optional(),
});
export type BenchmarkingResult = z.infer<typeof BenchmarkingResult>;

export const EvaluationEnvironment = z.object({
  device_id: z.string(),
  device_name: z.string(),
  compiler: z.string(),
  compiler_version: z.string().optional(),
  flags: z.array(z.string()),
  clocks: z.string().optional(),
  sandbox: z.string(),
  runner: z.string().optional(),
  /** Versions of what evaluated it (pytorch: python, torch, the C++ compiler load_inline uses). */
  toolchains: z.record(Text.max(40), Text.max(300)).optional(),
});
export type EvaluationEnvironment = z.infer<typeof EvaluationEnvironment>;

export const EvaluationState = z.object({
  verdict: Verdict,
  mode: EvaluationMode,
  /** One line on the outcome, e.g. `accepted: 3.1x faster than the reference`. */
  message: z.string(),
  compile: CompileReport.nullable(),
  correctness: CorrectnessReport.nullable(),
  /** Present only when the verdict is `accepted` (or `implausible`, with the figures that gave it away). */
  benchmarking_result: BenchmarkingResult.nullable().optional(),
  /** Captured output of the candidate (truncated); never returned in ranked mode. */
  stdout: z.string().optional(),
  stderr: z.string().optional(),
  environment: EvaluationEnvironment.optional(),
  runner_seconds: z.number().nonnegative(),
  evaluated_at: z.string(),
  /** pytorch problems: the module constants the benchmark actually used on this device (scaled to fit it). */
  sizes_used: z.record(Text.max(100), z.number()).optional(),
  /** True when the reader is not the author (nor a superuser): the figures only. The compile log is empty, stdout,
      stderr and each case's message are left out, a verdict other than accepted says only its kind, and review
      reasons from the source scan say what kind of thing was found, not where (docs/evaluation.md). */
  redacted: z.boolean().optional(),
});
export type EvaluationState = z.infer<typeof EvaluationState>;
