#!/usr/bin/env node
// kforge-runner: a standalone runner that claims evaluation jobs from a Kernelforge server over the runner API.
//   kforge-runner --server URL --token T [--work-dir D] [--devices cpu-x86_64,cuda-H100] [--problems DIR]
// Environment: KFORGE_SERVER_URL, KFORGE_RUNNER_TOKEN (flags win).
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { discoverDevices, loadCatalogue, sandboxAvailable, startRunnerLoop } from './index.js';
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

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      server: { type: 'string' },
      token: { type: 'string' },
      'work-dir': { type: 'string' },
      devices: { type: 'string' },
      problems: { type: 'string' },
      name: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(
      'usage: kforge-runner --server URL --token T [--work-dir D] [--devices cpu-x86_64,...] [--problems DIR] [--name N]\n',
    );
    return 0;
  }
  const serverUrl = values.server ?? process.env.KFORGE_SERVER_URL;
  const token = values.token ?? process.env.KFORGE_RUNNER_TOKEN;
  if (!serverUrl || !token) {
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
  const workDir = resolve(values['work-dir'] ?? join(homedir(), '.kforge-runner'));
  const problems = loadCatalogue(findProblems(values.problems));
  let devices = discoverDevices({ workDir });
  if (values.devices) {
    const wanted = values.devices.split(',').map((s) => s.trim());
    devices = devices.filter((d) => wanted.includes(d.id));
    if (devices.length === 0) {
      process.stderr.write(`kforge-runner: none of ${wanted.join(', ')} is on this machine\n`);
      return 2;
    }
  }
  process.stderr.write(
    `kforge-runner: ${problems.size} problems; devices ${devices.map((d) => `${d.id} (${d.peaks.bandwidth_gbps.toFixed(1)} GB/s, ${d.peaks.fp32_gflops.toFixed(0)} GFLOP/s)`).join(', ')}\n`,
  );
  const loop = startRunnerLoop({
    serverUrl,
    token,
    devices,
    problems,
    workDir,
    allowUnsandboxed,
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
