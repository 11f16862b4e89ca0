// Public API of @kernelforge/runner, used by the server (in-process runner) and by `kforge-runner`.
// Kept small on purpose; everything else is private.
//   loadCatalogue(dir)            -> Catalogue (full definitions, ranked sizes included: server-side only)
//   toPublicProblem(def)          -> sdk Problem (no ranked sizes; prototype and reference source)
//   customProblemDefinition(name, input) -> a definition for a user's CustomProblemInput
//   discoverDevices({workDir, python}) -> sdk Device[] (cpu with measured peaks; GPUs via nvidia-smi)
//   runnerSettingsFromEnv(env)    -> RunnerSettings (KFORGE_PYTHON, KFORGE_JOB_CGROUP): read at entry points only
//   cpuInfo()                     -> sdk CpuInfo (ISA, vector registers, caches; no peaks measured)
//   evaluate(payload, opts)       -> sdk EvaluationState (throws EvaluationSetupError when no evaluation can be made)
//   runLeaseLoop(worker, halt)    -> the one claim/heartbeat/work/report loop over leased jobs (any kind)
//   runJobLoop(source, opts, halt) -> that loop evaluating, over any JobSource
//   startRunnerLoop(opts)         -> a standalone runner speaking the runner API; returns a handle to stop or drain it
//   prepareWorkDir(dir), runTrialJob(opts) -> the checks a runner passes before it registers (PreflightError if not)
//   buildVersion(packageRoot)     -> what a build calls itself: version+commit (dist/build.json, git, or the version)
export { loadCatalogue, loadProblem } from './problems/catalogue.js';
export { toPublicProblem } from './problems/public.js';
export { customProblemDefinition } from './problems/custom.js';
export { prototypeOf } from './problems/prototype.js';
export type { Catalogue, ProblemDefinition } from './problems/schema.js';
export {
  inspectTorchSources,
  loadTorchProblems,
  problemDirsFromEnv,
  referenceOutputWarnings,
  torchBudgets,
  torchFilesIn,
  type TorchFile,
  type TorchLoadError,
  type TorchLoadWarning,
} from './backends/torch/problems.js';
export { torchJobProblem } from './backends/torch/driver.js';
export { torchToolchain } from './backends/torch/toolchain.js';
export {
  DEFAULT_PYTHON,
  DEFAULT_RUNNER_SETTINGS,
  type RunnerSettings,
  runnerSettingsFromEnv,
} from './settings.js';
export { pythonReviewReasons } from './backends/torch/python-scan.js';
export { discoverDevices } from './devices/discover.js';
export { cpuInfo, deviceForJob, genericDeviceId } from './devices/cpu.js';
export { evaluate, EvaluationSetupError, type EvaluateOptions, type EvaluationProfile } from './evaluate/evaluate.js';
export type { TimingRules } from './harness/plan.js';
export { sandboxAvailable } from './sandbox/bwrap.js';
export {
  type JobLoopOptions,
  type JobOutcome,
  type JobSource,
  type LeasedJob,
  type LeaseWorker,
  runJobLoop,
  runLeaseLoop,
  type Settled,
} from './loop/job-loop.js';
export { startRunnerLoop, type RunnerLoopOptions, type RunnerLoopHandle } from './loop/runner-loop.js';
export {
  PreflightError,
  prepareWorkDir,
  runTrialJob,
  trialPayload,
  workDirMode,
  type TrialOptions,
} from './loop/preflight.js';
export { buildVersion } from './internal/version.js';
