// Evaluates one candidate end to end: picks its backend (C on a cpu, CUDA, PyTorch; see backend.ts) and runs it.
import type { Device, EvaluationJobPayload, EvaluationState } from '@kernelforge/sdk';
import type { TimingRules } from '../harness/plan.js';
import { customProblemDefinition } from '../problems/custom.js';
import type { Catalogue, ProblemDefinition } from '../problems/schema.js';
import { sandboxAvailable } from '../sandbox/bwrap.js';
import { DEFAULT_RUNNER_SETTINGS, type RunnerSettings } from '../settings.js';
import { EvaluationSetupError, type EvaluationJob, runBackend, timingRules } from './backend.js';
import { cBackend, cudaBackend, type EvaluationProfile } from './c-abi.js';
import type { ProgressListener } from './progress.js';
import { torchBackend, torchJobProblem, torchToolchain } from './torch.js';

export { EvaluationSetupError } from './backend.js';
export type { EvaluationProfile } from './c-abi.js';
export { peakRecheck, RECHECK_FRACTION } from './judge/peak.js';

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

export function resolveProblem(payload: EvaluationJobPayload, problems: Catalogue): ProblemDefinition {
  if (payload.custom_problem) return customProblemDefinition(payload.problem_name, payload.custom_problem);
  const p = problems.get(payload.problem_name);
  if (!p) throw new EvaluationSetupError(`unknown problem ${payload.problem_name}`);
  return p;
}

export async function evaluate(payload: EvaluationJobPayload, opts: EvaluateOptions): Promise<EvaluationState> {
  if (!sandboxAvailable() && !opts.allowUnsandboxed)
    throw new EvaluationSetupError(
      'bubblewrap (bwrap) is not available: refusing to run untrusted code. Install bubblewrap, or set KFORGE_ALLOW_UNSANDBOXED=1 for unsafe local runs.',
    );
  const settings: RunnerSettings = {
    python: opts.python ?? DEFAULT_RUNNER_SETTINGS.python,
    jobCgroup: opts.jobCgroup ?? DEFAULT_RUNNER_SETTINGS.jobCgroup,
  };
  const catalogued = payload.custom_problem ? undefined : opts.problems.get(payload.problem_name);
  if (payload.torch_problem || catalogued?.kind === 'pytorch') {
    const tp = torchJobProblem(payload, catalogued, opts.device);
    if (!tp) throw new EvaluationSetupError(`${payload.problem_name} has no sizes for ${opts.device.id}`);
    const tc = torchToolchain(settings.python);
    if (!tc.ok) throw new EvaluationSetupError(`pytorch problems are unavailable on this runner: ${tc.reason}`);
    const problem = {
      definition: tp,
      compiledBaseline: opts.compiledBaseline !== false,
      staged: opts.torchStaged === true,
      computeCapability: opts.computeCapability,
      facts: opts.profileFacts !== false,
    };
    return runBackend(torchBackend, evaluationJob(payload, problem, opts, settings));
  }
  const problem = {
    definition: resolveProblem(payload, opts.problems),
    computeCapability: opts.computeCapability,
    onProfile: opts.onProfile,
  };
  const backend = opts.device.kind === 'cuda' ? cudaBackend : cBackend;
  return runBackend(backend, evaluationJob(payload, problem, opts, settings));
}

/** The job as every backend sees it; its clock (runner_seconds) starts here. */
function evaluationJob<P>(
  payload: EvaluationJobPayload,
  problem: P,
  opts: EvaluateOptions,
  settings: RunnerSettings,
): EvaluationJob<P> {
  const started = performance.now();
  const ranked = payload.mode === 'ranked';
  return {
    payload,
    problem,
    device: opts.device,
    ranked,
    timing: timingRules(opts.timing, ranked),
    base: { mode: payload.mode, evaluated_at: new Date().toISOString() },
    started,
    elapsed: () => (performance.now() - started) / 1000,
    workDir: opts.workDir,
    settings,
    keepJobDir: opts.keepJobDir === true,
    signal: opts.signal,
    onProgress: opts.onProgress,
  };
}
