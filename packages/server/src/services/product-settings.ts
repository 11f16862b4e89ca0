// Knobs of the job queue and the session loop, parsed once from the environment (the platform's Config has no room for them yet).
import { z } from 'zod';

const num = (fallback: number) =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    z.coerce.number().positive().default(fallback),
  );

const Env = z.object({
  /** How long a claimed job stays leased without a heartbeat. */
  KFORGE_JOB_LEASE_SECONDS: num(60),
  /** Tries per job before it is dead-lettered. */
  KFORGE_JOB_MAX_TRIES: num(3),
  /** How often the reaper looks for expired leases. */
  KFORGE_REAPER_INTERVAL_MS: num(2000),
  /** Generate workers per server process. */
  KFORGE_GENERATE_WORKERS: num(2),
  /** Budgets per session (DESIGN 7): attempts in all and evaluation seconds in all. */
  KFORGE_SESSION_MAX_ATTEMPTS: num(200),
  KFORGE_SESSION_MAX_RUNNER_SECONDS: num(3600),
  /** A runner not seen for this long no longer counts as serving its devices. */
  KFORGE_RUNNER_STALE_SECONDS: num(90),
  /** The in-process runner's timing rules: `quick` is for tests (few samples, unstable numbers). */
  KFORGE_RUNNER_TIMING: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.enum(['default', 'quick']).default('default'),
  ),
});

export interface ProductSettings {
  leaseSeconds: number;
  maxTries: number;
  reaperIntervalMs: number;
  generateWorkers: number;
  sessionMaxAttempts: number;
  sessionMaxRunnerSeconds: number;
  runnerStaleSeconds: number;
  runnerTiming: 'default' | 'quick';
}

export function loadProductSettings(env: Record<string, string | undefined> = process.env): ProductSettings {
  const e = Env.parse(env);
  return {
    leaseSeconds: e.KFORGE_JOB_LEASE_SECONDS,
    maxTries: Math.round(e.KFORGE_JOB_MAX_TRIES),
    reaperIntervalMs: e.KFORGE_REAPER_INTERVAL_MS,
    generateWorkers: Math.max(1, Math.round(e.KFORGE_GENERATE_WORKERS)),
    sessionMaxAttempts: Math.round(e.KFORGE_SESSION_MAX_ATTEMPTS),
    sessionMaxRunnerSeconds: e.KFORGE_SESSION_MAX_RUNNER_SECONDS,
    runnerStaleSeconds: e.KFORGE_RUNNER_STALE_SECONDS,
    runnerTiming: e.KFORGE_RUNNER_TIMING,
  };
}
