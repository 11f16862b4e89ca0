// A real server process killed with kill -9 mid-session: after a restart the session resumes, no attempt lost or duplicated.
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentSession } from '@kernelforge/sdk';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { restartableServerEnv, startServerProcess } from '../helpers/process.js';
import { migratedPostgresDatabase, seedPgliteDataDir } from '../helpers/template.js';
import { waitFor } from './helpers.js';

const dataDir = mkdtempSync(join(tmpdir(), 'kforge-restart-'));
const admin = { email: 'admin@restart.test', password: `pw-${randomBytes(8).toString('hex')}` };
let db: { url: string; drop(): Promise<void> } | null = null;
let proc: ChildProcess | null = null;

beforeAll(async () => {
  const base = process.env.KFORGE_TEST_DATABASE_URL;
  // A copy of the migrated template (helpers/template.ts): the first start does not wait on initdb.
  if (base) db = await migratedPostgresDatabase(base);
  else await seedPgliteDataDir(dataDir);
});

afterAll(async () => {
  if (proc && proc.exitCode === null) proc.kill('SIGKILL');
  await db?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Starts `kforge-server` from source as its own process and resolves with its URL once it listens. */
function startServer() {
  return startServerProcess(restartableServerEnv({ dataDir, admin, databaseUrl: db?.url }));
}

async function login(url: string): Promise<string> {
  const res = await fetch(`${url}/auth/login/access-token`, {
    method: 'POST',
    body: new URLSearchParams({ username: admin.email, password: admin.password }),
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

async function session(url: string, token: string, id: string): Promise<AgentSession> {
  const res = await fetch(`${url}/api/v1/agent-session/${id}`, { headers: { Authorization: `Bearer ${token}` } });
  return (await res.json()) as AgentSession;
}

test('a server killed with kill -9 mid-session resumes it after a restart, no attempt lost or duplicated', async () => {
  const first = await startServer();
  proc = first.child;
  const token = await login(first.url);
  const devices = (await (
    await fetch(`${first.url}/api/v1/devices`, { headers: { Authorization: `Bearer ${token}` } })
  ).json()) as {
    data: { id: string; kind: string }[];
  };
  const device = devices.data.find((d) => d.kind === 'cpu')?.id;
  const created = await fetch(`${first.url}/api/v1/agent-session`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ problem_name: '19_ReLU', device, max_attempts: 4 }),
  });
  expect(created.status).toBe(201);
  const id = ((await created.json()) as AgentSession).id;

  // Mid-session: one attempt evaluated, the next one in flight.
  await waitFor(
    async () => {
      const s = await session(first.url, token, id);
      return (
        s.generation_attempts.some((a) => a.status === 'completed') &&
        s.generation_attempts.some((a) => a.status !== 'completed')
      );
    },
    { timeoutMs: 120_000, intervalMs: 200, what: 'the session to be mid-way' },
  );
  first.child.kill('SIGKILL');
  await new Promise((r) => first.child.once('exit', r));

  const second = await startServer();
  proc = second.child;
  const done = await waitFor(
    async () => {
      const s = await session(second.url, token, id);
      return s.status === 'idle' ? s : undefined;
    },
    { timeoutMs: 180_000, intervalMs: 300, what: 'the session to finish after the restart' },
  );
  expect(done.generation_attempts.map((a) => a.attempt_number)).toEqual([1, 2, 3, 4]);
  for (const a of done.generation_attempts) expect(a.status).toBe('completed');
  expect(done.user_instructions[0]?.status).toBe('completed');
  second.child.kill('SIGTERM');
  await new Promise((r) => second.child.once('exit', r));
}, 420_000);
