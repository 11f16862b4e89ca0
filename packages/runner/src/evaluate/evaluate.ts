// Evaluates one candidate end to end: picks its backend by the problem's kind (the registry, backends/index.ts: C on
// a cpu or CUDA, PyTorch) and runs it (evaluate/backend.ts).
import type { EvaluationJobPayload, EvaluationState } from '@kernelforge/sdk';
import { backendFor } from '../backends/index.js';
import { sandboxAvailable } from '../sandbox/bwrap.js';
import { DEFAULT_RUNNER_SETTINGS, type RunnerSettings } from '../settings.js';
import { EvaluationSetupError, type EvaluationJob, timingRules } from './backend.js';
import type { EvaluateOptions } from './options.js';

export { EvaluationSetupError } from './backend.js';
export type { EvaluateOptions, EvaluationProfile } from './options.js';
export { peakRecheck, RECHECK_FRACTION } from './judge/peak.js';

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
  const kind = payload.torch_problem ? 'pytorch' : (catalogued?.kind ?? 'c');
  const backend = backendFor(kind);
  if (!backend) throw new EvaluationSetupError(`no backend evaluates ${kind} problems`);
  return backend.evaluate(payload, {
    opts,
    settings,
    catalogued,
    job: (problem) => evaluationJob(payload, problem, opts, settings),
  });
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
    peakRecheckWaitMs: opts.peakRecheckWaitMs,
    signal: opts.signal,
    onProgress: opts.onProgress,
  };
}
