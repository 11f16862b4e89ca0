// What the runner takes from its host's environment. Read once, at an entry point (`kforge-runner`'s main.ts; the
// server's config for its in-process runner, catalogue and device discovery), and passed down as options: nothing
// below the entry points reads these variables. docs/operations.md documents them (packages/server/src/settings-doc.ts).

/** The interpreter the torch backend and the problem inspector run when KFORGE_PYTHON is unset. */
export const DEFAULT_PYTHON = '/usr/bin/python3';

export interface RunnerSettings {
  /** KFORGE_PYTHON: the interpreter (with PyTorch) the torch backend and the problem inspector run. */
  python: string;
  /**
   * KFORGE_JOB_CGROUP (anything but `0`): each job in a cgroup of its own where the runner can make one (root, a
   * writable cgroupfs). false: process-group and pid-namespace kills only.
   */
  jobCgroup: boolean;
}

export const DEFAULT_RUNNER_SETTINGS: Readonly<RunnerSettings> = { python: DEFAULT_PYTHON, jobCgroup: true };

/** The settings from environment variables (an entry point passes process.env, or the values it parsed). */
export function runnerSettingsFromEnv(env: {
  KFORGE_PYTHON?: string | undefined;
  KFORGE_JOB_CGROUP?: string | undefined;
}): RunnerSettings {
  return {
    python: env.KFORGE_PYTHON ?? DEFAULT_PYTHON,
    jobCgroup: env.KFORGE_JOB_CGROUP !== '0',
  };
}
