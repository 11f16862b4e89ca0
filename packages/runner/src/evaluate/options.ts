// What evaluate() is told (evaluate/evaluate.ts), shared with the backends that read it (backends/*/index.ts).
import type { Device } from '@kernelforge/sdk';
import type { TimingRules } from '../harness/plan.js';
import type { Catalogue } from '../problems/schema.js';
import type { ProgressListener } from './progress.js';

/** Milliseconds per phase of one evaluation; `harness` is the harness's own breakdown (see c/harness_main.c). */
export interface EvaluationProfile {
  build_ms: number;
  compile_ms: number;
  harness_ms: number;
  total_ms: number;
  harness: Record<string, number>;
}

export interface EvaluateOptions {
  problems: Catalogue;
  device: Device;
  /** The runner's own directory: build cache and per-job folders live here (never the server's data dir). */
  workDir: string;
  signal?: AbortSignal;
  /** `quick` is for tests: few samples, short budgets. Ranked mode always uses the ranked rules unless given rules. */
  timing?: 'default' | 'quick' | TimingRules;
  /** Keep the job folder for inspection. */
  keepJobDir?: boolean;
  /** cuda: the device's compute capability, e.g. "9.0". */
  computeCapability?: string;
  /**
   * Run candidates without a sandbox when bubblewrap is missing (unsafe; the operator's KFORGE_ALLOW_UNSANDBOXED=1,
   * read by the runner's and the server's entry points). Default false: no sandbox, no evaluation.
   */
  allowUnsandboxed?: boolean;
  /** The interpreter the torch backend runs (KFORGE_PYTHON, read by the entry points). Default /usr/bin/python3. */
  python?: string;
  /** Each job in a cgroup of its own where the runner can make one (KFORGE_JOB_CGROUP, read by the entry points).
      Default true. */
  jobCgroup?: boolean;
  /** pytorch problems: also time the reference compiled (TorchScript freeze on a cpu, torch.compile on cuda;
      default true). */
  compiledBaseline?: boolean;
  /** The longest wait for a quiet second before each run of a re-measurement of the cpu's peaks that a result calls
      for (judge/peak.ts; default RECHECK_WAIT_MS, 5 s). Tests set 0 (measure at once): the runner's entry points
      never set it. */
  peakRecheckWaitMs?: number | undefined;
  /** pytorch problems: lower floors for the candidate's time limits (TORCH_CANDIDATE_LIMITS in backends/torch/driver.ts:
      a call, a model build, all calls and builds together), so a test reaches a limit in seconds. Default: the
      product's (1 s, 10 s, 20 s); the runner's entry points never set it. */
  torchLimitFloors?:
    | { call_floor_s?: number; init_floor_s?: number; total_floor_s?: number; import_floor_s?: number }
    | undefined;
  /** pytorch problems on a cpu device: the staged protocol of the cuda path (prepare, timed run less the no-op,
      fetch), so its logic runs without a GPU (tests). Always on for cuda devices. */
  torchStaged?: boolean;
  /** Told where the evaluation is while it runs: compiling, checking case i of n, timing case i of n (samples). */
  onProgress?: ProgressListener;
  /** Called once the harness has run, with where the time went (bench/runner-profile.mjs). */
  onProfile?: (profile: EvaluationProfile) => void;
  /** The profiler facts' extra, untimed run of an accepted candidate (torch.profiler, Nsight Compute; default
      true): false leaves it out. */
  profileFacts?: boolean;
}
