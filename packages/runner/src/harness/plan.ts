// Writes the plan the C harness reads: arguments, cases with element counts, seeds and timing rules.
import { planRules, RETAKE_WAIT_SHARE, RETIME_WAIT_MS, SPEEDUP_HALF_WIDTH } from '../evaluate/judge.js';
import { evalExpr } from '../problems/expr.js';
import type { CaseDef, ProblemDefinition } from '../problems/schema.js';
import { elementCount } from '../problems/validate.js';

export interface TimingRules {
  warmupCalls: number;
  warmupMs: number;
  minSamples: number;
  minMs: number;
  /** Budget for all timed cases together. */
  maxMs: number;
  /** Stop when the standard error of each series' median is below this fraction of the median. */
  targetRse: number;
  /** And when the 95% interval of each case's paired speedup has at most this half-width over the speedup
      (judge.ts SPEEDUP_HALF_WIDTH); unset: no such rule (`quick`). */
  targetSpeedupHalfWidth?: number;
  /** A timed pair one of whose calls spent more than this share of its window runnable but waiting for a cpu is
      taken again, within a bound (judge.ts RETAKE_WAIT_SHARE); unset: never (`quick`). */
  retakeWaitShare?: number;
  /** Benchmark mode: the chance that a sample without an interleaved baseline is checked (decided after the call). */
  checkProbability: number;
  callTimeoutMs: number;
  /** `auto` (default): flush the caches before a sample only when the case's data is under twice the
      last-level cache (writing fresh data evicts the rest); `always`: before every sample. */
  flush?: 'auto' | 'always';
  /** Whether a ranked result timed under heavy outside load is timed again once (default true). `quick` says no:
      its numbers are unstable by design, and a second timing would only make a test wait. */
  retime?: boolean;
  /** A ranked result timed under heavy outside load is timed again once the machine has quieted (a one-second
      window under the noisy threshold), waiting at most this long (ms); unset or 0: at once. */
  retimeWaitMs?: number;
}

export const DEFAULT_TIMING: TimingRules = {
  warmupCalls: 3,
  warmupMs: 25,
  minSamples: 10,
  minMs: 100,
  maxMs: 10_000,
  targetRse: 0.01,
  targetSpeedupHalfWidth: SPEEDUP_HALF_WIDTH,
  retakeWaitShare: RETAKE_WAIT_SHARE,
  checkProbability: 0.25,
  callTimeoutMs: 10_000,
  retimeWaitMs: RETIME_WAIT_MS,
};
export const RANKED_TIMING: TimingRules = { ...DEFAULT_TIMING, maxMs: 30_000 };
/** For tests only: enough to exercise every path, not to give stable numbers. */
export const QUICK_TIMING: TimingRules = {
  warmupCalls: 1,
  warmupMs: 0,
  minSamples: 5,
  minMs: 0,
  maxMs: 3_000,
  targetRse: 1,
  checkProbability: 0.5,
  callTimeoutMs: 5_000,
  retime: false,
};

export interface PlanInput {
  problem: ProblemDefinition;
  ranked: boolean;
  cuda: boolean;
  testCases: readonly CaseDef[];
  benchCases: readonly CaseDef[];
  seeds: readonly bigint[];
  benchSeed: bigint;
  timing: TimingRules;
  /** Bytes of the last-level cache (cpu; 0: let the harness find out). */
  llcBytes?: number;
  /** How long the candidate's worker may take to exit when told to (ms; the harness's default 1000): the profiled
      run's worker runs under ncu, which prints its counters after the worker exits. */
  exitWaitMs?: number;
}

function caseLine(kind: 'test' | 'bench', c: CaseDef, p: ProblemDefinition): string {
  const vals = p.signature.map((a) => (a.shape ? elementCount(a.shape, c.sizes) : evalExpr(a.name, c.sizes)));
  return `case ${kind} ${c.name} ${vals.join(' ')}`;
}

export function planText(input: PlanInput): string {
  const p = input.problem;
  const t = input.timing;
  const lines = [
    `mode ${input.ranked ? 'ranked' : 'benchmark'}`,
    `backend ${input.cuda ? 'cuda' : 'cpu'}`,
    `tolerance ${p.tolerance.atol} ${p.tolerance.rtol}`,
    `timing ${t.warmupCalls} ${t.warmupMs} ${t.minSamples} ${t.minMs} ${t.maxMs} ${t.targetRse} ${t.checkProbability} ${t.callTimeoutMs}`,
    ...p.signature.map((a) => `arg ${a.name} ${a.type.replace('*', '')} ${a.type.endsWith('*') ? 1 : 0} ${a.role}`),
    ...p.distributions.map((d) => `dist ${d}`),
    ...input.seeds.map((s) => `seed ${s}`),
    `bench_seed ${input.benchSeed}`,
    `flush ${t.flush ?? 'auto'}`,
    ...(t.targetSpeedupHalfWidth ? [`speedup_half_width ${t.targetSpeedupHalfWidth}`] : []),
    ...(t.retakeWaitShare ? [`retake_wait_share ${t.retakeWaitShare}`] : []),
    rulesLine(),
    ...(input.llcBytes ? [`llc ${input.llcBytes}`] : []),
    ...(input.exitWaitMs !== undefined ? [`exit_wait_ms ${Math.round(input.exitWaitMs)}`] : []),
    ...(input.cuda ? cudaLines() : []),
    ...input.testCases.map((c) => caseLine('test', c, p)),
    ...input.benchCases.map((c) => caseLine('bench', c, p)),
  ];
  return `${lines.join('\n')}\n`;
}

/** cuda: how long the device is kept busy before each timed call (us; c/worker_cuda.cu), 200 unless
    KFORGE_CUDA_BUSY_US says otherwise; `probe off` only where KFORGE_CUDA_PROBE=off (bench/cuda.mjs, to watch the
    hostile kernels win without the harness's probe). */
export function cudaLines(env: NodeJS.ProcessEnv = process.env): string[] {
  const busy = env.KFORGE_CUDA_BUSY_US ? Number(env.KFORGE_CUDA_BUSY_US) : Number.NaN;
  return [
    `cuda_busy_us ${Number.isFinite(busy) && busy >= 0 && busy <= 100_000 ? busy : CUDA_BUSY_US}`,
    ...(env.KFORGE_CUDA_PROBE === 'off' ? ['probe off'] : []),
  ];
}
export const CUDA_BUSY_US = 200;

/** The judge's rules the C harness applies mid-run (see c/harness.h). */
function rulesLine(): string {
  const r = planRules();
  return `rules ${r.flagged_min} ${r.flagged_share} ${r.load_window_ms} ${r.atol_rms_share}`;
}
