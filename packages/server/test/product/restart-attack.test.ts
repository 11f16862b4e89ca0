// Issue 10's promise across a restart: a ranked submission that attacks the sandbox's init, with the server
// killed (kill -9) while that job runs, leaves no process behind once the job is run again by the restarted
// server, and an honest submission sent right after the restart is accepted within a minute.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Submission } from '@kernelforge/sdk';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { repoRoot, restartableServerEnv, type ServerProcess, startServerProcess } from '../helpers/process.js';
import { migratedPostgresDatabase, seedPgliteDataDir } from '../helpers/template.js';
import { waitFor } from './helpers.js';

const dataDir = mkdtempSync(join(tmpdir(), 'kforge-restart-attack-'));
const admin = { email: 'admin@restart-attack.test', password: `pw-${randomBytes(8).toString('hex')}` };
let db: { url: string; drop(): Promise<void> } | null = null;
let server: ServerProcess | null = null;

beforeAll(async () => {
  const base = process.env.KFORGE_TEST_DATABASE_URL;
  // A copy of the migrated template (helpers/template.ts): the first start does not wait on initdb.
  if (base) db = await migratedPostgresDatabase(base);
  else await seedPgliteDataDir(dataDir);
});

afterAll(async () => {
  if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
  await db?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

function start(): Promise<ServerProcess> {
  return startServerProcess(restartableServerEnv({ dataDir, admin, databaseUrl: db?.url }));
}

/** Live (not zombie) processes on this machine whose name is `name`. */
function processesNamed(name: string): number[] {
  const out: number[] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
      if (state !== 'Z' && readFileSync(`/proc/${d}/comm`, 'utf8').trim() === name) out.push(Number(d));
    } catch {
      /* gone */
    }
  }
  return out;
}

async function api<T>(url: string, path: string, token: string, body?: unknown): Promise<{ status: number; body: T }> {
  const init: RequestInit = { headers: { Authorization: `Bearer ${token}` } };
  if (body !== undefined)
    Object.assign(init, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
  const res = await fetch(`${url}${path}`, init);
  return { status: res.status, body: (await res.json()) as T };
}

async function login(url: string): Promise<string> {
  const res = await fetch(`${url}/auth/login/access-token`, {
    method: 'POST',
    body: new URLSearchParams({ username: admin.email, password: admin.password }),
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

const fixture = (path: string) => readFileSync(join(repoRoot, 'packages/runner/test', path), 'utf8');

test('a ranked kernel attacking the sandbox init, with the server killed mid-job: after the restart it leaves no process and an honest submission is accepted within a minute', async () => {
  const mark = `kfr${randomBytes(5).toString('hex')}`; // a process name holds 15 characters
  const attack = `#define KF_MARK "${mark}"\n${fixture('cheats/attack_init.c')}`;
  const honest = fixture('candidates/relu_omp.c');

  server = await start();
  let token = await login(server.url);
  const devices = await api<{ data: { id: string; kind: string }[] }>(server.url, '/api/v1/devices', token);
  const device = devices.body.data.find((d) => d.kind === 'cpu')?.id;
  expect(device).toBeTruthy();
  const submitted = await api<Submission>(server.url, '/api/v1/submission', token, {
    problem_name: '19_ReLU',
    device,
    language: 'c',
    source: attack,
  });
  expect(submitted.status).toBe(201);
  const attackId = submitted.body.id;

  // Mid-job: the attack is running in the sandbox (it names itself `mark` once it has taken over, or while
  // it sleeps in solution()).
  await waitFor(async () => processesNamed(mark).length > 0, {
    timeoutMs: 120_000,
    intervalMs: 100,
    what: 'the attacking kernel to be running',
  });
  server.child.kill('SIGKILL');
  await new Promise((r) => server?.child.once('exit', r));

  server = await start();
  token = await login(server.url);
  const sentAt = Date.now();
  const second = await api<Submission>(server.url, '/api/v1/submission', token, {
    problem_name: '19_ReLU',
    device,
    language: 'c',
    source: honest,
  });
  expect(second.status).toBe(201);

  const accepted = await waitFor(
    async () => {
      const s = await api<Submission>(server?.url ?? '', `/api/v1/leaderboard/submission/${second.body.id}`, token);
      return s.body.status === 'completed' || s.body.status === 'failed' ? s.body : undefined;
    },
    { timeoutMs: 120_000, intervalMs: 250, what: 'the honest submission to be evaluated' },
  );
  const tookMs = Date.now() - sentAt;
  expect(accepted.verdict, JSON.stringify(accepted)).toBe('accepted');
  expect(tookMs, 'an honest submission after the restart is evaluated within a minute').toBeLessThan(60_000);

  // The attack's job, leased by the killed server, is run again by the restarted one and ends in a verdict
  // that is not accepted; nothing it started is left running.
  const attacked = await waitFor(
    async () => {
      const s = await api<Submission>(server?.url ?? '', `/api/v1/leaderboard/submission/${attackId}`, token);
      return s.body.status === 'completed' || s.body.status === 'failed' ? s.body : undefined;
    },
    { timeoutMs: 120_000, intervalMs: 250, what: 'the attacking submission to end' },
  );
  expect(['timeout', 'runtime_error'], JSON.stringify(attacked)).toContain(attacked.verdict);
  await waitFor(async () => processesNamed(mark).length === 0, {
    timeoutMs: 5_000,
    intervalMs: 100,
    what: `no process named ${mark} to be left`,
  });
  await server.stop();
}, 400_000);
