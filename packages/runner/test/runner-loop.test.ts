// The standalone runner against a local server that speaks the runner API, including a server restart.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { EvaluationJobPayload, RunnerResultRequest } from '@kernelforge/sdk';
import { afterAll, describe, expect, it } from 'vitest';
import { startRunnerLoop } from '../src/index.js';
import { timingLockPath } from '../src/sandbox/timing-lock.js';
import { catalogue, cpuDevice, fixture, payload, workDir } from './helpers.js';

interface Fake {
  server: Server;
  jobs: Array<{ id: string; payload: EvaluationJobPayload }>;
  results: Map<string, RunnerResultRequest>;
  heartbeats: number;
  /** The stages the heartbeats' progress named, in order. */
  stages: string[];
  registrations: number;
  runners: Set<string>;
  /** An older server's: progress of a stage it does not know is refused (422), counted here. */
  refused: number;
  /** Heartbeats without a progress taken after a refusal. */
  bareAfterRefusal: number;
}

const TOKEN = 'runner-secret-token';

/** `older`: a server from before the lock and quiet stages (issue 35), which refuses them with a 422. */
function fakeServer(port: number, jobs: Fake['jobs'], results: Fake['results'], older = false): Promise<Fake> {
  const fake: Fake = {
    server: undefined as unknown as Server,
    jobs,
    results,
    heartbeats: 0,
    stages: [],
    registrations: 0,
    runners: new Set(),
    refused: 0,
    bareAfterRefusal: 0,
  };
  const body = (req: IncomingMessage) =>
    // biome-ignore lint/suspicious/noExplicitAny: the fake server reads loosely shaped JSON bodies
    new Promise<any>((resolve) => {
      let s = '';
      req.on('data', (c) => (s += c));
      req.on('end', () => resolve(s ? JSON.parse(s) : {}));
    });
  const send = (res: ServerResponse, status: number, json: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(json));
  };
  fake.server = createServer(async (req, res) => {
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return send(res, 401, { detail: 'bad token' });
    const b = await body(req);
    const url = req.url ?? '';
    if (url === '/api/v1/runner/register') {
      fake.registrations++;
      const id = `r${fake.registrations}-${port}-${Date.now()}`;
      fake.runners.add(id);
      return send(res, 200, { runner_id: id, lease_seconds: 30, heartbeat_seconds: 1 });
    }
    if (!fake.runners.has(b.runner_id)) return send(res, 404, { detail: 'unknown runner' });
    if (url === '/api/v1/runner/claim') {
      const job = fake.jobs.shift();
      if (!job) {
        await new Promise((r) => setTimeout(r, Math.min(b.wait_ms ?? 0, 300)));
        return send(res, 200, { job: null });
      }
      return send(res, 200, {
        job: {
          job_id: job.id,
          lease_token: `lease-${job.id}`,
          lease_expires_at: new Date(Date.now() + 30_000).toISOString(),
          attempt: 1,
          payload: job.payload,
        },
      });
    }
    const hb = /^\/api\/v1\/runner\/jobs\/([^/]+)\/heartbeat$/.exec(url);
    if (hb) {
      if (older && b?.progress && !['compiling', 'correctness', 'timing'].includes(b.progress.stage)) {
        fake.refused++;
        return send(res, 422, {
          detail: [{ loc: ['body', 'progress', 'stage'], msg: 'Invalid enum value', type: 'x' }],
        });
      }
      if (!b?.progress && fake.refused > 0) fake.bareAfterRefusal++;
      fake.heartbeats++;
      if (b?.progress?.stage) fake.stages.push(b.progress.stage);
      return send(res, 200, { lease_expires_at: new Date(Date.now() + 30_000).toISOString() });
    }
    const rs = /^\/api\/v1\/runner\/jobs\/([^/]+)\/result$/.exec(url);
    if (rs?.[1]) {
      fake.results.set(rs[1], b);
      return send(res, 200, { ok: true });
    }
    send(res, 404, { detail: 'no route' });
  });
  return new Promise((resolve) => fake.server.listen(port, '127.0.0.1', () => resolve(fake)));
}

const until = async (cond: () => boolean, ms: number) => {
  const end = Date.now() + ms;
  while (!cond() && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
  return cond();
};

const stops: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const s of stops) await s();
});

describe('kforge-runner loop', () => {
  it('registers, claims, heartbeats, posts results, and carries on after the server restarts', async () => {
    const results = new Map<string, RunnerResultRequest>();
    const jobs: Fake['jobs'] = [{ id: 'job-1', payload: payload('19_ReLU', fixture('./candidates/relu_omp.c')) }];
    let fake = await fakeServer(0, jobs, results);
    const port = (fake.server.address() as { port: number }).port;
    const loop = startRunnerLoop({
      serverUrl: `http://127.0.0.1:${port}`,
      token: TOKEN,
      devices: [cpuDevice()],
      problems: catalogue,
      workDir,
      claimWaitMs: 200,
      minBackoffMs: 100,
      maxBackoffMs: 400,
      timing: 'quick',
      log: () => {},
    });
    stops.push(() => loop.stop());
    expect(await until(() => results.has('job-1'), 60_000)).toBe(true);
    const first = results.get('job-1')!;
    expect(first.evaluation_state?.verdict).toBe('accepted');
    expect(first.lease_token).toBe('lease-job-1');
    expect(fake.heartbeats).toBeGreaterThan(0);
    // The heartbeats carried the evaluation's progress, in order, from compiling on.
    expect(fake.stages[0]).toBe('compiling');
    expect(fake.stages).toContain('timing');
    // A wait for the timing lock (another lane's timing) comes between the checks and the timing.
    const order = ['compiling', 'correctness', 'lock', 'timing'];
    for (let i = 1; i < fake.stages.length; i++)
      if (fake.stages[i] !== 'compiling')
        expect(order.indexOf(fake.stages[i] as string)).toBeGreaterThanOrEqual(
          order.indexOf(fake.stages[i - 1] as string),
        );
    const firstRunner = loop.runnerId();

    // Restart: the new server knows no runners (404 on claim) and is down for a moment first.
    const closed = new Promise<void>((r) => fake.server.close(() => r()));
    fake.server.closeAllConnections();
    await closed;
    await new Promise((r) => setTimeout(r, 700));
    jobs.push({ id: 'job-2', payload: payload('19_ReLU', 'void solution(const float* x, float* y, long n) { }') });
    fake = await fakeServer(port, jobs, results);
    expect(await until(() => results.has('job-2'), 60_000)).toBe(true);
    expect(results.get('job-2')!.evaluation_state?.verdict).toBe('incorrect');
    expect(loop.runnerId()).not.toBe(firstRunner);
    await loop.stop();
    fake.server.closeAllConnections();
    await new Promise<void>((r) => fake.server.close(() => r()));
  }, 120_000);

  it('keeps its lease on a server that predates the lock stage: a refused progress is beaten again without it', async () => {
    // The device's lock, held by another timing in a lock folder of this test's own, so the harness reports `lock`.
    const before = process.env.KFORGE_TIMING_LOCK_DIR;
    process.env.KFORGE_TIMING_LOCK_DIR = mkdtempSync(join(workDir, 'lock-'));
    const other = spawn(
      'python3',
      [
        '-c',
        'import fcntl,sys,time\nf=open(sys.argv[1],"a")\nfcntl.flock(f,fcntl.LOCK_EX)\nprint("held",flush=True)\ntime.sleep(300)',
        timingLockPath(cpuDevice().id),
      ],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    const results = new Map<string, RunnerResultRequest>();
    const fake = await fakeServer(
      0,
      [{ id: 'job-old', payload: payload('19_ReLU', fixture('./candidates/relu_omp.c')) }],
      results,
      true,
    );
    try {
      await new Promise<void>((resolve) => other.stdout?.once('data', () => resolve()));
      const port = (fake.server.address() as { port: number }).port;
      const loop = startRunnerLoop({
        serverUrl: `http://127.0.0.1:${port}`,
        token: TOKEN,
        devices: [cpuDevice()],
        problems: catalogue,
        workDir,
        claimWaitMs: 200,
        timing: 'quick',
        log: () => {},
      });
      stops.push(() => loop.stop());
      // Refused, then kept by a beat without the progress; then the other timing ends.
      expect(await until(() => fake.refused > 0 && fake.bareAfterRefusal > 0, 60_000)).toBe(true);
      other.kill('SIGKILL');
      expect(await until(() => results.has('job-old'), 120_000)).toBe(true);
      expect(results.get('job-old')?.evaluation_state?.verdict).toBe('accepted');
      await loop.stop();
    } finally {
      other.kill('SIGKILL');
      fake.server.closeAllConnections();
      await new Promise<void>((r) => fake.server.close(() => r()));
      if (before === undefined) delete process.env.KFORGE_TIMING_LOCK_DIR;
      else process.env.KFORGE_TIMING_LOCK_DIR = before;
    }
  }, 240_000);

  it('reports an infrastructure error for a problem it does not know', async () => {
    const results = new Map<string, RunnerResultRequest>();
    const fake = await fakeServer(0, [{ id: 'job-x', payload: payload('no_such_problem', 'x') }], results);
    const port = (fake.server.address() as { port: number }).port;
    const loop = startRunnerLoop({
      serverUrl: `http://127.0.0.1:${port}`,
      token: TOKEN,
      devices: [cpuDevice()],
      problems: catalogue,
      workDir,
      claimWaitMs: 100,
      log: () => {},
    });
    expect(await until(() => results.has('job-x'), 20_000)).toBe(true);
    expect(results.get('job-x')!.error).toMatch(/unknown problem/);
    await loop.stop();
    fake.server.closeAllConnections();
    await new Promise<void>((r) => fake.server.close(() => r()));
  }, 60_000);
});
