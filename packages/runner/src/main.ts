#!/usr/bin/env node
// kforge-runner: a standalone runner that claims evaluation jobs from a Kernelforge server over the runner API.
//   kforge-runner --server URL [--server URL2 ...] --token T [--work-dir D] [--devices cpu-x86_64,cuda-H100] [--problems DIR]
// Environment: KFORGE_SERVER_URL (comma-separated for several), KFORGE_RUNNER_TOKEN, KFORGE_ALLOW_UNSANDBOXED (flags win);
// KFORGE_PYTHON and KFORGE_JOB_CGROUP (runnerSettingsFromEnv), read here once and passed down.
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { discoverDevices, loadCatalogue, runnerSettingsFromEnv, sandboxAvailable, startRunnerLoop } from './index.js';
import { packageRoot } from './internal/paths.js';

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
  --work-dir D      build cache and job folders (created 0700). Default: ~/.kforge-runner
  --devices LIST    serve only these devices (comma-separated ids, e.g. cpu-x86_64,cuda-H100; a generic id such as
                    cpu-x86_64 names this machine's cpu-x86_64-<isa>-<model>). Default: all found
  --problems DIR    the problem catalogue. Default: the repository's problems/
  --name N          the name this runner registers with. Default: the host name
  -h, --help        this text

Environment: KFORGE_ALLOW_UNSANDBOXED=1 runs candidates without bubblewrap when it is missing (unsafe);
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
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const serverUrls = splitUrls(values.server?.length ? values.server : [process.env.KFORGE_SERVER_URL ?? '']);
  const token = values.token ?? process.env.KFORGE_RUNNER_TOKEN;
  if (serverUrls.length === 0 || !token) {
    process.stderr.write(
      'kforge-runner: --server and --token (or KFORGE_SERVER_URL and KFORGE_RUNNER_TOKEN) are required\n',
    );
    return 2;
  }
  const allowUnsandboxed = process.env.KFORGE_ALLOW_UNSANDBOXED === '1';
  if (!sandboxAvailable() && !allowUnsandboxed) {
    process.stderr.write(
      'kforge-runner: bubblewrap (bwrap) is not usable here; install it, or set KFORGE_ALLOW_UNSANDBOXED=1 to run candidates unsandboxed (unsafe)\n',
    );
    return 2;
  }
  const settings = runnerSettingsFromEnv(process.env);
  const workDir = resolve(values['work-dir'] ?? join(homedir(), '.kforge-runner'));
  const problems = loadCatalogue(findProblems(values.problems));
  let devices = discoverDevices({ workDir, python: settings.python });
  if (values.devices) {
    const wanted = values.devices.split(',').map((s) => s.trim());
    // A generic id names every device extending it: `cpu-x86_64` serves this machine's `cpu-x86_64-avx512-...`.
    devices = devices.filter((d) => wanted.some((w) => d.id === w || d.id.startsWith(`${w}-`)));
    if (devices.length === 0) {
      process.stderr.write(`kforge-runner: none of ${wanted.join(', ')} is on this machine\n`);
      return 2;
    }
  }
  process.stderr.write(
    `kforge-runner: ${problems.size} problems; devices ${devices.map((d) => `${d.id} (${d.peaks.bandwidth_gbps.toFixed(1)} GB/s, ${d.peaks.fp32_gflops.toFixed(0)} GFLOP/s)`).join(', ')}\n`,
  );
  process.stderr.write(`kforge-runner: servers ${serverUrls.join(', ')}\n`);
  const loop = startRunnerLoop({
    serverUrl: serverUrls,
    token,
    devices,
    problems,
    workDir,
    allowUnsandboxed,
    python: settings.python,
    jobCgroup: settings.jobCgroup,
    ...(values.name ? { name: values.name } : {}),
  });
  await new Promise<void>((r) => {
    process.once('SIGINT', r);
    process.once('SIGTERM', r);
  });
  await loop.stop();
  return 0;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(`kforge-runner: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  },
);
