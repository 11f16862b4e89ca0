// Two real replicas on one Postgres and a standalone runner given both: the replica it works with dies mid-job.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { discoverDevices, loadCatalogue, type RunnerLoopHandle, startRunnerLoop } from '@kernelforge/runner';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot, type ServerProcess, startServerProcess } from '../helpers/process.js';
import { freshPostgresDatabase } from '../helpers/server.js';
import { waitFor } from '../product/helpers.js';

const pgBase = process.env.KFORGE_TEST_DATABASE_URL;
const RUNNER_TOKEN = `runner-${randomBytes(12).toString('hex')}`;
const ADMIN = { email: 'admin@kforge.test', password: `pw-${randomBytes(9).toString('base64url')}` };
const RELU = `#include <stdint.h>
void solution(const float* x, float* y, int64_t n) {
  for (int64_t i = 0; i < n; i++) y[i] = x[i] > 0.0f ? x[i] : 0.0f;
}
`;

const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

async function replica(databaseUrl: string, secret: string): Promise<ServerProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), 'kforge-replica-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const server = await startServerProcess({
    DATABASE_URL: databaseUrl,
    KFORGE_DATA_DIR: dataDir,
    KFORGE_SECRET: secret,
    KFORGE_RUNNER_TOKEN: RUNNER_TOKEN,
    KFORGE_LOCAL_RUNNER: '0',
    KFORGE_ADMIN_EMAIL: ADMIN.email,
    KFORGE_ADMIN_PASSWORD: ADMIN.password,
    // Beats every 2 s: a job outlives a dead replica only if its heartbeats find the other one.
    KFORGE_JOB_LEASE_SECONDS: '6',
    KFORGE_REAPER_INTERVAL_MS: '500',
  });
  cleanups.push(() => server.stop());
  return server;
}

describe.skipIf(!pgBase)('a runner given two replicas', () => {
  it('finishes a job through the survivor when the replica it claimed from dies: one try, one result', async () => {
    const db = await freshPostgresDatabase(pgBase as string);
    cleanups.push(() => db.drop());
    const secret = randomBytes(32).toString('hex');
    // One after the other: the first applies the migrations (starting together is the migration test's job).
    const a = await replica(db.url, secret);
    const b = await replica(db.url, secret);

    const lines: string[] = [];
    let runner: RunnerLoopHandle | undefined;
    const workDir = join(tmpdir(), `kforge-runner-test-${process.getuid?.() ?? 0}`);
    const devices = discoverDevices({ workDir });
    const cpu = devices.find((d) => d.kind === 'cpu');
    expect(cpu).toBeDefined();
    runner = startRunnerLoop({
      serverUrl: [a.url, b.url],
      token: RUNNER_TOKEN,
      devices: cpu ? [cpu] : [],
      problems: loadCatalogue(join(repoRoot, 'problems')),
      workDir,
      name: 'failover-runner',
      claimWaitMs: 1000,
      minBackoffMs: 100,
      maxBackoffMs: 1000,
      timing: 'quick',
      log: (line) => {
        lines.push(line);
        // The moment the job is claimed from replica A, A dies (SIGKILL: no goodbye): all its evaluation is still ahead.
        if (line.startsWith('claimed job') && line.endsWith(`from ${a.url}`)) a.child.kill('SIGKILL');
      },
    });
    cleanups.push(() => runner?.stop());

    // Everything the user does goes through replica B.
    const login = await fetch(`${b.url}/auth/login/access-token`, {
      method: 'POST',
      body: new URLSearchParams({ username: ADMIN.email, password: ADMIN.password }),
    });
    const token = ((await login.json()) as { access_token: string }).access_token;
    const api = (path: string, init: RequestInit = {}) =>
      fetch(`${b.url}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      });
    await waitFor(
      async () => {
        const d = (await (await api('/api/v1/devices')).json()) as { data: Array<{ id: string; available: boolean }> };
        return d.data.some((x) => x.id === cpu?.id && x.available);
      },
      { what: 'the runner to register' },
    );
    const created = await api('/api/v1/submission', {
      method: 'POST',
      body: JSON.stringify({ problem_name: '19_ReLU', device: cpu?.id, language: 'c', source: RELU }),
    });
    expect(created.status).toBe(201);
    const submissionId = ((await created.json()) as { id: string }).id;

    const done = await waitFor(
      async () => {
        const r = (await (await api(`/api/v1/leaderboard/submission/${submissionId}`)).json()) as {
          status: string;
          evaluation_state?: { verdict: string; mode: string };
        };
        return r.status === 'completed' || r.status === 'failed' ? r : undefined;
      },
      { timeoutMs: 120_000, intervalMs: 200, what: 'the evaluation to finish through replica B' },
    );
    await runner.stop();
    runner = undefined;

    const log = lines.join('\n');
    expect(a.child.signalCode, log).toBe('SIGKILL');
    // A judged result, whatever its verdict (a loaded machine can fail the timing checks): not an error, not lost.
    expect(done, `${log}\n${JSON.stringify(done).slice(0, 2000)}`).toMatchObject({
      status: 'completed',
      evaluation_state: { mode: 'ranked' },
    });
    // The runner said what happened: A failed, it moved to B, and B took the result.
    expect(log).toContain(`server ${a.url} failed`);
    expect(log).toContain(`failing over to ${b.url}`);
    expect(log).toContain(`${done.evaluation_state?.verdict} (posted to ${b.url})`);
    // One claim, one result: the job was never leased again, and no other evaluation job exists.
    expect(log.match(/claimed job/g)?.length).toBe(1);
    expect(log.match(/\(posted to /g)?.length).toBe(1);
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      const jobs = await client.query<{ status: string; attempts: number }>(
        `SELECT status, attempts FROM jobs WHERE kind = 'evaluate'`,
      );
      expect(jobs.rows).toHaveLength(1);
      expect(jobs.rows[0]?.attempts).toBe(1);
      expect(jobs.rows[0]?.status).not.toMatch(/queued|leased|dead/);
    } finally {
      await client.end();
    }
  }, 180_000);
});
