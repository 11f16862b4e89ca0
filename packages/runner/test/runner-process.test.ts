// `kforge-runner` as an operator starts it (the CLI, as root here), against a stand-in server speaking the runner API:
// it refuses a work dir its sandbox cannot reach, registers only after a trial job passed through its real sandbox,
// drains on SIGTERM, does one job with --once, and killed with kill -9 mid-evaluation leaves no process, lock holder
// or job cgroup behind.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EvaluationJobPayload, EvaluationState } from '@kernelforge/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PreflightError, prepareWorkDir, runTrialJob } from '../src/index.js';
import { catalogue, cpuDevice, fixture, payload, repoRoot } from './helpers.js';

const TOKEN = 'runner-process-token';
const isRoot = process.getuid?.() === 0;
const SOURCES_TSCONFIG = join(repoRoot, 'packages/server/test/helpers/tsconfig.sources.json');

/** A correct ReLU that spins about 20 ms a call: its evaluation lasts seconds, its timed phase holds the lock a while. */
const SLOW_RELU = `#include <stdint.h>
#include <time.h>
void solution(const float* x, float* y, int64_t n) {
  struct timespec a, b;
  clock_gettime(CLOCK_MONOTONIC, &a);
  do clock_gettime(CLOCK_MONOTONIC, &b); while ((b.tv_sec - a.tv_sec) * 1e3 + (b.tv_nsec - a.tv_nsec) / 1e6 < 20);
  for (int64_t i = 0; i < n; i++) y[i] = x[i] > 0.0f ? x[i] : 0.0f;
}
`;

interface Fake {
  url: string;
  /** Every request's path, in order. */
  seen: string[];
  jobs: Array<{ id: string; payload: EvaluationJobPayload }>;
  results: Map<string, EvaluationState | string>;
  deregistered: string[];
  close(): Promise<void>;
}

async function fakeServer(): Promise<Fake> {
  const fake = { seen: [] as string[], jobs: [], results: new Map(), deregistered: [] as string[] } as Omit<
    Fake,
    'url' | 'close'
  >;
  let n = 0;
  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const read = (req: IncomingMessage) =>
    new Promise<Record<string, unknown>>((resolve) => {
      let s = '';
      req.on('data', (c) => (s += c));
      req.on('end', () => resolve(s ? JSON.parse(s) : {}));
    });
  const server: Server = createServer(async (req, res) => {
    const path = (req.url ?? '').replace('/api/v1/runner', '');
    fake.seen.push(path);
    const body = await read(req);
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return send(res, 401, { detail: 'bad token' });
    const lease = () => new Date(Date.now() + 60_000).toISOString();
    if (path === '/register') return send(res, 200, { runner_id: `r${++n}`, lease_seconds: 60, heartbeat_seconds: 2 });
    if (path === '/deregister') {
      fake.deregistered.push(body.runner_id as string);
      return send(res, 200, { message: 'Runner deregistered' });
    }
    if (path === '/claim') {
      const job = fake.jobs.shift();
      if (!job) {
        await new Promise((r) => setTimeout(r, 200));
        return send(res, 200, { job: null });
      }
      const claimed = { job_id: job.id, lease_token: `l-${job.id}`, attempt: 1, payload: job.payload };
      return send(res, 200, { job: { ...claimed, lease_expires_at: lease() } });
    }
    const m = /^\/jobs\/([^/]+)\/(heartbeat|result)$/.exec(path);
    if (m?.[2] === 'heartbeat') return send(res, 200, { lease_expires_at: lease() });
    if (m?.[2] === 'result') {
      fake.results.set(m[1] as string, (body.evaluation_state as EvaluationState) ?? String(body.error));
      return send(res, 200, { message: 'Result recorded' });
    }
    send(res, 404, { detail: 'no such route' });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    ...fake,
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

interface Runner {
  proc: ChildProcess;
  log: () => string;
  exited: Promise<number | null>;
}

function startRunner(args: string[], env: Record<string, string> = {}): Runner {
  const proc = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'packages/runner/src/main.ts'), ...args], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? '/tmp',
      TSX_TSCONFIG_PATH: SOURCES_TSCONFIG,
      KFORGE_RUNNER_TOKEN: TOKEN,
      // The test run's start-up peaks (scripts/test.mjs), not a peaks run of its own at each start (1.4 cpu-s). Its
      // harnesses it builds itself: where they are built is part of what the trial job checks.
      ...(process.env.KFORGE_CPU_PEAKS_SHARE ? { KFORGE_CPU_PEAKS_SHARE: process.env.KFORGE_CPU_PEAKS_SHARE } : {}),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  proc.stdout?.on('data', (b) => (log += b));
  proc.stderr?.on('data', (b) => (log += b));
  const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
  return { proc, log: () => log, exited };
}

async function until<T>(
  what: string,
  check: () => T | undefined | false,
  timeoutMs = 90_000,
  everyMs = 50,
  runner?: Runner,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = check();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    if (runner && runner.proc.exitCode !== null)
      throw new Error(`the runner exited while waiting for ${what}:\n${runner.log()}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** Processes whose command line names `text` (the work dir: harness, bwrap, compilers), this test's own excluded. */
function processesNaming(text: string): string[] {
  const out: string[] = [];
  for (const p of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const cmd = readFileSync(`/proc/${p}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (cmd.includes(text) && Number(p) !== process.pid) out.push(`${p}: ${cmd.slice(0, 200)}`);
    } catch {
      /* gone */
    }
  }
  return out;
}

/** Lock files in `dir` some process holds (flock -n cannot take them). */
function heldLocks(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((f) => spawnSync('flock', ['-n', '-E', '99', join(dir, f), 'true']).status === 99);
}

/** Job cgroups a runner with this pid made (kf-<pid>-...), in every hierarchy they could be in. */
function cgroupsOf(pid: number): string[] {
  const bases = ['/sys/fs/cgroup/kforge-jobs', '/sys/fs/cgroup/unified/kforge-jobs'];
  try {
    for (const c of readdirSync('/sys/fs/cgroup')) bases.push(join('/sys/fs/cgroup', c, 'kforge-jobs'));
  } catch {
    /* no cgroupfs */
  }
  const out: string[] = [];
  for (const b of new Set(bases)) {
    try {
      for (const n of readdirSync(b)) if (n.startsWith(`kf-${pid}-`)) out.push(join(b, n));
    } catch {
      /* not there */
    }
  }
  return out;
}

let scratch: string;
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'kforge-runner-process-'));
  // Passable by every user, as /tmp is: the folders under it are the ones under test.
  chmodSync(scratch, 0o755);
});
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

describe('the work dir and the trial job', () => {
  it.skipIf(!isRoot)('as root, a work dir under a 0700 folder is refused, naming the folder and the fix', () => {
    const parent = mkdtempSync(join(scratch, 'private-'));
    expect(statSync(parent).mode & 0o777).toBe(0o700);
    let error: unknown;
    try {
      prepareWorkDir(join(parent, 'work'));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(PreflightError);
    expect((error as Error).message).toContain(`${parent} is 0700`);
    expect((error as Error).message).toContain('--work-dir');
    expect((error as Error).message).toContain(`chmod o+x ${parent}`);
  });

  it('a work dir made 0700 (mkdtemp) is made 0711 as root (0700 otherwise)', () => {
    const dir = mkdtempSync(join(scratch, 'work-'));
    prepareWorkDir(dir);
    expect(statSync(dir).mode & 0o777).toBe(isRoot ? 0o711 : 0o700);
  });

  it.skipIf(!isRoot)(
    "the trial job fails, naming the fix, where the sandbox's user cannot reach the work dir; passes once it can",
    async () => {
      const dir = mkdtempSync(join(scratch, 'unreachable-')); // 0700: what the cluster runner had
      let error: unknown;
      try {
        await runTrialJob({ workDir: dir, device: cpuDevice(), problems: catalogue });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(PreflightError);
      expect((error as Error).message).toMatch(/would fail every job/);
      expect((error as Error).message).toMatch(/--work-dir/);
      prepareWorkDir(dir);
      const state = await runTrialJob({ workDir: dir, device: cpuDevice(), problems: catalogue });
      expect(state.verdict, state.message).toBe('accepted');
    },
    180_000,
  );
});

describe('kforge-runner, the process', () => {
  let fake: Fake;
  let workDir: string;
  let lockDir: string;
  beforeAll(async () => {
    fake = await fakeServer();
    workDir = mkdtempSync(join(scratch, 'cli-work-')); // 0700, as scripts/cluster.mjs makes it
    lockDir = join(scratch, 'locks');
    mkdirSync(lockDir, { recursive: true });
  });
  afterAll(async () => {
    await fake?.close();
  });
  // The quick timing rules (few samples): what is under test is the process around the evaluation, not its timing;
  // the default rules' up to 10 s of timing took most of --once's 30 s in CI.
  const args = () => ['--server', fake.url, '--work-dir', workDir, '--devices', 'cpu-x86_64', '--timing', 'quick'];
  const env = () => ({ KFORGE_TIMING_LOCK_DIR: lockDir });

  it.skipIf(!isRoot)('as root with a work dir under a 0700 folder it exits 3 without registering', async () => {
    const parent = mkdtempSync(join(scratch, 'cli-private-'));
    const r = startRunner(['--server', fake.url, '--work-dir', join(parent, 'w')], env());
    expect(await r.exited, r.log()).toBe(3);
    expect(r.log()).toMatch(/out of the sandbox's reach: .* is 0700.*Fix: pass --work-dir/s);
    expect(r.log()).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z kforge-runner: /m);
    expect(fake.seen).toEqual([]);
  });

  it('--once: trial job first, then registers, evaluates one honest job, deregisters, exits 0', async () => {
    fake.jobs.push(
      { id: 'once-1', payload: payload('19_ReLU', fixture('./candidates/relu_omp.c')) },
      { id: 'once-2', payload: payload('19_ReLU', fixture('./candidates/relu_omp.c')) },
    );
    const r = startRunner([...args(), '--once', '--name', 'once'], env());
    expect(await r.exited, r.log()).toBe(0);
    const log = r.log();
    // Registered only after the trial job passed.
    expect(log.indexOf('trial job passed'), log).toBeGreaterThan(-1);
    expect(log.indexOf('trial job passed')).toBeLessThan(log.indexOf('registered as'));
    const state = fake.results.get('once-1') as EvaluationState;
    expect(state?.verdict, log).toBe('accepted');
    // Timed under --timing quick: its 5 samples a side, where the default rules take at least 10.
    expect(state.benchmarking_result?.cases[0]?.optimized.samples).toBeLessThan(10);
    expect(fake.results.has('once-2')).toBe(false);
    expect(fake.jobs.map((j) => j.id)).toEqual(['once-2']);
    expect(fake.deregistered).toHaveLength(1);
    expect(fake.seen.filter((p) => p === '/register')).toHaveLength(1);
    // Every line of its log has its time.
    for (const line of log.split('\n').filter((l) => l.includes('kforge-runner:')))
      expect(line).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z kforge-runner: /);
    fake.jobs.length = 0;
  }, 240_000);

  it('SIGTERM drains: the job under way is finished and posted, nothing more is claimed, it deregisters, exits 0', async () => {
    fake.deregistered.length = 0;
    fake.jobs.push(
      { id: 'drain-1', payload: payload('19_ReLU', SLOW_RELU) },
      { id: 'drain-2', payload: payload('19_ReLU', SLOW_RELU) },
    );
    const r = startRunner([...args(), '--name', 'drain'], env());
    await until('drain-1 to be claimed', () => r.log().includes('claimed job drain-1'), 180_000, 50, r);
    r.proc.kill('SIGTERM');
    expect(await r.exited, r.log()).toBe(0);
    expect(r.log()).toContain('draining');
    expect(fake.results.has('drain-1'), r.log()).toBe(true);
    expect(fake.jobs.map((j) => j.id)).toEqual(['drain-2']);
    expect(fake.deregistered).toHaveLength(1);
    expect(existsSync(join(workDir, 'runner.pid'))).toBe(false);
    fake.jobs.length = 0;
  }, 240_000);

  it('kill -9 mid-evaluation leaves no process, no lock holder and no job cgroup behind', async () => {
    fake.jobs.push({ id: 'killed', payload: payload('19_ReLU', SLOW_RELU) });
    const r = startRunner([...args(), '--name', 'killed'], env());
    const pid = r.proc.pid as number;
    await until('the job to be claimed', () => r.log().includes('claimed job killed'), 180_000, 50, r);
    // Its timed phase: the harness holds the device's timing lock.
    await until('the timing lock to be held', () => heldLocks(lockDir).length > 0, 120_000, 20, r);
    const before = processesNaming(workDir);
    expect(before.length, 'the harness and its sandboxes run').toBeGreaterThan(0);
    if (isRoot) expect(cgroupsOf(pid).length, 'a job cgroup while it runs').toBeGreaterThan(0);
    r.proc.kill('SIGKILL');
    await r.exited;
    const killedAt = Date.now();
    await until(
      'its harness, sandboxes, lock and cgroups to be gone',
      () => processesNaming(workDir).length === 0 && heldLocks(lockDir).length === 0 && cgroupsOf(pid).length === 0,
      10_000,
    ).catch(() => {
      throw new Error(
        `left behind: ${JSON.stringify({ processes: processesNaming(workDir), locks: heldLocks(lockDir), cgroups: cgroupsOf(pid) })}`,
      );
    });
    // Gone within moments, not at the end of a lease or a harness time limit.
    expect(Date.now() - killedAt).toBeLessThan(5_000);
    expect(fake.results.has('killed')).toBe(false);
  }, 240_000);
});
