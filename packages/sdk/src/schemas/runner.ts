// The runner API between the server's job queue and `kforge-runner` processes (or the in-process runner).
import { z } from 'zod';
import { Text, Timestamp } from './common.js';
import { Device } from './device.js';
import { EvaluationMode, EvaluationState } from './evaluation.js';
import { CustomProblemInput, Language } from './problem.js';

/** A pytorch problem as a job carries it, so a runner without the operator's problem folders can run it. */
export const TorchJobProblem = z.object({
  /** The problem file's text (KernelBench format). */
  source: Text.min(1).max(1_000_000),
  /** The file's name, e.g. `19_ReLU.py` (shown in tracebacks). */
  file_name: Text.min(1).max(300),
  /** Each case: the module constants to run it at (the server picked the device's scaled sizes). */
  cases: z.object({
    test: z.array(z.object({ name: Text.max(200), constants: z.record(Text.max(100), z.number()) })).max(16),
    benchmark: z.array(z.object({ name: Text.max(200), constants: z.record(Text.max(100), z.number()) })).max(16),
  }),
  tolerance: z.object({ atol: z.number().nonnegative(), rtol: z.number().nonnegative() }).optional(),
});
export type TorchJobProblem = z.infer<typeof TorchJobProblem>;

/** What a runner is asked to evaluate. `problem_name` names a catalogue problem; `custom_problem` carries a private one. */
export const EvaluationJobPayload = z.object({
  kind: z.enum(['attempt', 'submission', 'sweep']),
  /** The attempt, submission or sweep problem id the result belongs to (`sweep`: a ranked re-run of a sweep problem's best attempt). */
  target_id: Text,
  mode: EvaluationMode,
  problem_name: Text,
  custom_problem: CustomProblemInput.optional(),
  /** pytorch problems (language `pytorch`): the problem file and its sizes for this device. */
  torch_problem: TorchJobProblem.optional(),
  device: Text,
  language: Language,
  source: Text,
  /** Ranked mode: the leaderboard's secret seed. Never sent to clients. */
  secret_seed: Text.optional(),
});
export type EvaluationJobPayload = z.infer<typeof EvaluationJobPayload>;

export const RunnerRegisterRequest = z.object({
  name: Text.min(1).max(200),
  devices: z.array(Device).max(64),
  version: Text.max(100).optional(),
});
export type RunnerRegisterRequest = z.infer<typeof RunnerRegisterRequest>;

export const RunnerRegisterResponse = z.object({
  runner_id: Text,
  lease_seconds: z.number(),
  heartbeat_seconds: z.number(),
});
export type RunnerRegisterResponse = z.infer<typeof RunnerRegisterResponse>;

export const RunnerClaimRequest = z.object({
  runner_id: Text.max(100),
  devices: z.array(Text.max(100)).min(1).max(64),
  /** Long-poll: how long the server may hold the request open waiting for a job. */
  wait_ms: z.number().int().min(0).max(30_000).default(0),
});
export type RunnerClaimRequest = z.infer<typeof RunnerClaimRequest>;

export const ClaimedJob = z.object({
  job_id: Text,
  lease_token: Text,
  lease_expires_at: Text,
  attempt: z.number().int(),
  payload: EvaluationJobPayload,
});
export type ClaimedJob = z.infer<typeof ClaimedJob>;

/** `job` is null when nothing was waiting. */
export const RunnerClaimResponse = z.object({ job: ClaimedJob.nullable() });
export type RunnerClaimResponse = z.infer<typeof RunnerClaimResponse>;

/** The most cases, and timed samples of one case, an evaluation's progress may name (far above any real one). */
export const MAX_PROGRESS_CASES = 10_000;
export const MAX_PROGRESS_SAMPLES = 10_000_000;

/**
 * A wait inside an evaluation (issue 35 item 3), as its runner reports it: for the device's timing lock (one
 * evaluation is timed at a time on a machine; `holder` says what holds it and `holder_until` when its timing should
 * end), or for the machine to quiet before a result timed under load is timed again (`busy_cores` of `cores` were
 * busy with other work in the last second; under `quiet_below` it goes on). `since`: when the wait began (the
 * runner's clock); `max_seconds`: the longest it waits before it goes on anyway (and says so in the result).
 */
export const EvaluationWait = z.object({
  since: Timestamp,
  max_seconds: z.number().nonnegative().max(86_400),
  holder: Text.max(200).optional(),
  holder_until: Timestamp.optional(),
  busy_cores: z.number().nonnegative().max(100_000).optional(),
  cores: z.number().int().positive().max(100_000).optional(),
  quiet_below: z.number().nonnegative().max(100_000).optional(),
});
export type EvaluationWait = z.infer<typeof EvaluationWait>;

/**
 * Which part of an evaluation runs now, as its runner last saw it: compiling; checking correctness, test case
 * `case_index` of `case_count`; waiting for the device's timing lock (`lock`) or for the machine to quiet (`quiet`),
 * with `wait`; or timing, benchmark case `case_index` of `case_count` with `samples` clean timed samples of that case
 * taken so far. Written by the trusted harness (never the candidate) and the runner, informational only: no verdict
 * or figure is read from it. Compiling and the waits name no case (0 of 0, or 0 of the benchmark cases).
 */
export const EvaluationProgress = z
  .object({
    stage: z.enum(['compiling', 'correctness', 'lock', 'quiet', 'timing']),
    case_index: z.number().int().min(0).max(MAX_PROGRESS_CASES),
    case_count: z.number().int().min(0).max(MAX_PROGRESS_CASES),
    samples: z.number().int().min(0).max(MAX_PROGRESS_SAMPLES),
    /** The `lock` and `quiet` stages: why it waits, since when, and for about how long (absent from older runners). */
    wait: EvaluationWait.optional(),
  })
  .refine((p) => p.case_index <= p.case_count, {
    message: 'case_index must not exceed case_count',
    path: ['case_index'],
  });
export type EvaluationProgress = z.infer<typeof EvaluationProgress>;

export const RunnerHeartbeatRequest = z.object({
  runner_id: Text,
  lease_token: Text,
  /** Where the evaluation is now; stored on the job and shown on its session's progress (absent: unchanged). */
  progress: EvaluationProgress.optional(),
});
export type RunnerHeartbeatRequest = z.infer<typeof RunnerHeartbeatRequest>;
export const RunnerHeartbeatResponse = z.object({ lease_expires_at: Text });
export type RunnerHeartbeatResponse = z.infer<typeof RunnerHeartbeatResponse>;

/** A result, or an infrastructure error (the job is retried, then dead-lettered). */
export const RunnerResultRequest = z.object({
  runner_id: Text,
  lease_token: Text,
  evaluation_state: EvaluationState.optional(),
  error: z.string().optional(),
});
export type RunnerResultRequest = z.infer<typeof RunnerResultRequest>;

/** A runner going away on purpose (drained, or done with its one job): it leaves the device list at once. */
export const RunnerDeregisterRequest = z.object({ runner_id: Text.max(100) });
export type RunnerDeregisterRequest = z.infer<typeof RunnerDeregisterRequest>;
