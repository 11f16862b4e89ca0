#!/usr/bin/env node
// kforge-runner: a standalone runner that claims evaluation jobs from a Kernelforge server over the runner API.
//   kforge-runner --server URL [--server URL2 ...] --token T [--work-dir D] [--devices cpu-x86_64,cuda-H100] [--problems DIR]
//   [--once]; kforge-runner --drain [--work-dir D] tells the runner on that work dir to drain and waits for it.
// Environment: KFORGE_SERVER_URL (comma-separated for several), KFORGE_RUNNER_TOKEN, KFORGE_ALLOW_UNSANDBOXED (flags win);
// KFORGE_PYTHON and KFORGE_JOB_CGROUP (runnerSettingsFromEnv), read here once and passed down.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  buildVersion,
  discoverDevices,
  loadCatalogue,
  PreflightError,
  prepareWorkDir,
  runnerSettingsFromEnv,
  runTrialJob,
  sandboxAvailable,
  startRunnerLoop,
  workDirMode,
} from './index.js';
import { packageRoot } from './internal/paths.js';

/** Every line this process writes starts with its time (UTC), like the runner loop's. */
const say = (line: string) => process.stderr.write(`${new Date().toISOString()} kforge-runner: ${line}\n`);

/** As root the sandbox runs as another user, which cannot pass through root's 0700 home: a system folder instead. */
const defaultWorkDir = () => (process.getuid?.() === 0 ? '/var/lib/kforge-runner' : join(homedir(), '.kforge-runner'));

function findProblems(explicit?: string): string {
  if (explicit) return resolve(explicit);
  // The catalogue ships with the repository: look next to the package, then upwards from here.
  let dir = packageRoot();
  for (let i = 0; i < 4; i++) {
    if (existsSync(join(dir, 'problems'))) return join(dir, 'problems');
    dir = dirname(dir);
  }
  throw new Error('cannot find the problems/ folder: pass --problems DIR');
}

const USAGE = `usage: kforge-runner --server URL [--server URL ...] --token T [options]

  --server URL      a Kernelforge server (repeat it, or comma-separate, for every replica; or give the balancer's URL).
                    On a connection error, timeout or 5xx the runner moves on to the next; 4xx answers are final.
                    Default: KFORGE_SERVER_URL (comma-separated for several)
  --token T         the servers' KFORGE_RUNNER_TOKEN. Default: KFORGE_RUNNER_TOKEN
  --work-dir D      build cache and job folders (created 0700; 0711 when run as root, so that the sandbox's user,
                    nobody or a job's own uid, can pass through to its job folder; every folder above it must let
                    it pass too, or the runner refuses to start and says which). Default: ~/.kforge-runner, or
                    /var/lib/kforge-runner when run as root
  --devices LIST    serve only these devices (comma-separated ids, e.g. cpu-x86_64,cuda-H100; a generic id such as
                    cpu-x86_64 names this machine's cpu-x86_64-<isa>-<model>). Default: all found
  --problems DIR    the problem catalogue. Default: the repository's problems/
  --name N          the name this runner registers with. Default: the host name
  --once            one-job mode (autoscaling): claim one job, evaluate it, post its result, deregister, exit 0
  --timing RULES    default, or quick: few samples, unstable numbers, never re-timed (for tests only). Default: default
  --drain           do not run: tell the runner using --work-dir to drain (finish its job, claim no more,
                    deregister, exit 0) and wait until it has exited
  -h, --help        this text

Before it registers the runner checks its work dir and runs one trial job through its sandbox (a tiny known kernel,
compiled and run); it exits 3 with a message naming the fix when either fails.
SIGTERM or SIGINT drains the runner (as --drain does); a second one stops it at once (a job under way is abandoned
and handed on by the server).

Environment: KFORGE_RUNNER_TOKEN_FILE a file holding the token (a Docker secret); KFORGE_ALLOW_UNSANDBOXED=1 runs candidates without bubblewrap when it is missing (unsafe);
KFORGE_PYTHON the interpreter with PyTorch (default /usr/bin/python3); KFORGE_JOB_CGROUP=0 no cgroup per job.
`;

/** Repeated flags and comma-separated lists both give several URLs; blanks are dropped. */
function splitUrls(values: string[]): string[] {
  return values
    .flatMap((v) => v.split(','))
    .map((s) => s.trim())
    .filter(Boolean);
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      server: { type: 'string', multiple: true },
      token: { type: 'string' },
      'work-dir': { type: 'string' },
      devices: { type: 'string' },
      problems: { type: 'string' },
      name: { type: 'string' },
      once: { type: 'boolean' },
      timing: { type: 'string' },
      drain: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const workDir = resolve(values['work-dir'] ?? defaultWorkDir());
  if (values.drain) return drainOther(workDir);
  if (values.timing !== undefined && values.timing !== 'default' && values.timing !== 'quick') {
    process.stderr.write(`kforge-runner: --timing is default or quick, not ${values.timing}\n`);
    return 2;
  }
  const serverUrls = splitUrls(values.server?.length ? values.server : [process.env.KFORGE_SERVER_URL ?? '']);
  const token = values.token ?? process.env.KFORGE_RUNNER_TOKEN ?? tokenFromFile(process.env.KFORGE_RUNNER_TOKEN_FILE);
  if (serverUrls.length === 0 || !token) {
    process.stderr.write(
      'kforge-runner: --server and --token (or KFORGE_SERVER_URL and KFORGE_RUNNER_TOKEN) are required\n',
    );
    return 2;
  }
  const allowUnsandboxed = process.env.KFORGE_ALLOW_UNSANDBOXED === '1';
  if (!sandboxAvailable() && !allowUnsandboxed) {
    say(
      'bubblewrap (bwrap) is not usable here; install it, or set KFORGE_ALLOW_UNSANDBOXED=1 to run candidates unsandboxed (unsafe)',
    );
    return 2;
  }
  const settings = runnerSettingsFromEnv(process.env);
  prepareWorkDir(workDir);
  const problems = loadCatalogue(findProblems(values.problems));
  const found = discoverDevices({ workDir, python: settings.python });
  let devices = found;
  if (values.devices) {
    const wanted = values.devices.split(',').map((s) => s.trim());
    // A generic id names every device extending it: `cpu-x86_64` serves this machine's `cpu-x86_64-avx512-...`.
    devices = devices.filter((d) => wanted.some((w) => d.id === w || d.id.startsWith(`${w}-`)));
    if (devices.length === 0) {
      say(`none of ${wanted.join(', ')} is on this machine`);
      return 2;
    }
  }
  const version = buildVersion(packageRoot());
  say(
    `${version}; ${problems.size} problems; devices ${devices.map((d) => `${d.id} (${d.peaks.bandwidth_gbps.toFixed(1)} GB/s, ${d.peaks.fp32_gflops.toFixed(0)} GFLOP/s)`).join(', ')}`,
  );
  say(`work dir ${workDir} (${workDirMode().toString(8).padStart(4, '0')}); servers ${serverUrls.join(', ')}`);
  // One trial job through the real sandbox before registering: a runner that cannot evaluate must not claim jobs.
  const cpu = found.find((d) => d.kind === 'cpu');
  if (cpu) {
    const trial = await runTrialJob({
      workDir,
      device: cpu,
      problems,
      allowUnsandboxed,
      python: settings.python,
      jobCgroup: settings.jobCgroup,
    });
    say(
      `trial job passed (${trial.verdict}, ${trial.runner_seconds.toFixed(1)} s; sandbox: ${trial.environment?.sandbox ?? '?'})`,
    );
  }
  const pidFile = join(workDir, 'runner.pid');
  writeFileSync(pidFile, `${process.pid}\n`);
  const loop = startRunnerLoop({
    serverUrl: serverUrls,
    token,
    devices,
    problems,
    workDir,
    allowUnsandboxed,
    python: settings.python,
    jobCgroup: settings.jobCgroup,
    version,
    ...(values.once ? { once: true } : {}),
    ...(values.timing === 'quick' ? { timing: 'quick' as const } : {}),
    ...(values.name ? { name: values.name } : {}),
  });
  // The first SIGTERM/SIGINT drains; a second stops at once.
  let signals = 0;
  const onSignal = (signal: string) => {
    signals++;
    if (signals === 1) {
      say(`${signal}: draining (send it again to stop at once)`);
      void loop.drain();
    } else {
      say(`${signal} again: stopping now`);
      void loop.stop();
    }
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  await loop.done;
  if (readPid(pidFile) === process.pid) rmSync(pidFile, { force: true });
  say('exited cleanly');
  return 0;
}

/** KFORGE_RUNNER_TOKEN_FILE: the token from a file (a Docker secret), one trailing newline dropped. */
function tokenFromFile(file: string | undefined): string | undefined {
  if (!file) return undefined;
  return readFileSync(file, 'utf8').replace(/\r?\n$/, '');
}

function readPid(file: string): number | undefined {
  try {
    const pid = Number(readFileSync(file, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** `--drain`: SIGTERM to the runner whose pid file is in the work dir, then wait for it to exit. */
async function drainOther(workDir: string): Promise<number> {
  const pid = readPid(join(workDir, 'runner.pid'));
  if (pid === undefined) {
    say(`no runner.pid in ${workDir}: no runner is running on this work dir (pass the one it uses: --work-dir D)`);
    return 1;
  }
  const alive = () => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  if (!alive()) {
    say(`the runner ${pid} named in ${join(workDir, 'runner.pid')} is not running`);
    return 1;
  }
  process.kill(pid, 'SIGTERM');
  say(`asked runner ${pid} to drain; waiting for it to finish its job and exit`);
  while (alive()) await new Promise((r) => setTimeout(r, 500));
  say(`runner ${pid} has exited`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    say(e instanceof Error ? e.message : String(e));
    // 3: this runner cannot evaluate here (work dir, sandbox): restarting it will not help until the fix is made.
    process.exit(e instanceof PreflightError ? 3 : 1);
  },
);
