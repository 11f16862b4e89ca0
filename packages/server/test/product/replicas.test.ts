// Two real server processes on one Postgres: work and live events cross replicas (jobs table, LISTEN/NOTIFY).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentSession, Device, Submission } from '@kernelforge/sdk';
import { afterAll, expect, it } from 'vitest';
import { type ServerProcess, startServerProcess } from '../helpers/process.js';
import { freshPostgresDatabase } from '../helpers/server.js';
import { readSse, waitFor } from './helpers.js';

// Several replicas need a real Postgres (PGlite is one process's embedded database). CI runs the suite twice,
// the second time with KFORGE_TEST_DATABASE_URL set, so this runs there; on the PGlite pass it is skipped.
const pgBase = process.env.KFORGE_TEST_DATABASE_URL;

const replicas: ServerProcess[] = [];
const dirs: string[] = [];
let drop: (() => Promise<void>) | null = null;

afterAll(async () => {
  await Promise.all(replicas.map((r) => r.stop()));
  await drop?.();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

it.skipIf(!pgBase)(
  'a session made on replica A is evaluated and streamed live to replica B; a submission to B is evaluated',
  { timeout: 240_000 },
  async () => {
    const db = await freshPostgresDatabase(pgBase as string);
    drop = db.drop;
    const admin = { email: 'admin@replicas.test', password: `pw-${randomBytes(8).toString('hex')}` };
    const shared = {
      DATABASE_URL: db.url,
      // One secret for all replicas, or a token signed by one is refused by the other.
      KFORGE_SECRET: randomBytes(32).toString('hex'),
      KFORGE_ADMIN_EMAIL: admin.email,
      KFORGE_ADMIN_PASSWORD: admin.password,
      KFORGE_RUNNER_TIMING: 'quick',
    };
    const dataDir = () => {
      const d = mkdtempSync(join(tmpdir(), 'kforge-replica-'));
      dirs.push(d);
      return d;
    };
    // A evaluates (the only runner); B has no runner at all.
    const a = await startServerProcess({ ...shared, KFORGE_DATA_DIR: dataDir(), KFORGE_LOCAL_RUNNER: '1' });
    replicas.push(a);
    const b = await startServerProcess({ ...shared, KFORGE_DATA_DIR: dataDir(), KFORGE_LOCAL_RUNNER: '0' });
    replicas.push(b);

    const login = await fetch(`${a.url}/auth/login/access-token`, {
      method: 'POST',
      body: new URLSearchParams({ username: admin.email, password: admin.password }),
    });
    const { access_token: token } = (await login.json()) as { access_token: string };
    const auth = { Authorization: `Bearer ${token}` };
    const call = async <T>(base: string, path: string, init: { method?: string; json?: unknown } = {}) => {
      const res = await fetch(`${base}/api/v1${path}`, {
        method: init.method ?? 'GET',
        headers: { ...auth, ...(init.json ? { 'Content-Type': 'application/json' } : {}) },
        ...(init.json ? { body: JSON.stringify(init.json) } : {}),
      });
      return { status: res.status, body: (await res.json()) as T };
    };

    // B learns of A's in-process runner from the shared runners table.
    const device = await waitFor(
      async () =>
        (await call<{ data: Device[] }>(b.url, '/devices')).body.data.find((d) => d.kind === 'cpu' && d.available),
      { timeoutMs: 60_000, intervalMs: 250, what: "replica B to see replica A's cpu" },
    );

    const created = await call<AgentSession>(a.url, '/agent-session', {
      method: 'POST',
      json: { problem_name: '19_ReLU', device: device.id, max_attempts: 2 },
    });
    expect(created.status).toBe(201);
    const id = created.body.id;

    // Subscribed on B with no Last-Event-ID: only events stored from now on arrive, each one woken by a NOTIFY.
    const stream = await fetch(`${b.url}/api/v1/agent-session/${id}/events`, { headers: auth });
    expect(stream.status).toBe(200);
    const events = await readSse(
      stream,
      (m) => m.event === 'session.status' && JSON.parse(m.data).status === 'idle',
      180_000,
    );
    const completed = events.filter(
      (m) => m.event === 'attempt.updated' && JSON.parse(m.data).attempt.status === 'completed',
    );
    expect(completed.length).toBeGreaterThan(0);
    expect(events.at(-1)?.event).toBe('session.status');

    const session = await call<AgentSession>(b.url, `/agent-session/${id}`);
    expect(session.body.generation_attempts.map((x) => [x.attempt_number, x.status])).toEqual([
      [1, 'completed'],
      [2, 'completed'],
    ]);
    expect(session.body.generation_attempts[0]?.evaluation_state?.verdict).toBe('accepted');

    // A submission posted to B: queued in the shared table, evaluated by A's runner, read back on B.
    const posted = await call<Submission>(b.url, '/submission', {
      method: 'POST',
      json: {
        problem_name: '19_ReLU',
        device: device.id,
        language: 'c',
        source: session.body.generation_attempts[0]?.source ?? '',
      },
    });
    expect(posted.status).toBe(201);
    let last: Submission | null = null;
    const evaluated = await waitFor(
      async () => {
        last = (await call<Submission>(b.url, `/leaderboard/submission/${posted.body.id}`)).body;
        return last.status === 'completed' || last.status === 'failed' ? last : undefined;
      },
      { timeoutMs: 120_000, intervalMs: 250, what: 'the submission to be evaluated' },
    ).catch((err) => {
      throw new Error(`${err}: ${JSON.stringify(last)}\n--- replica A\n${a.log().slice(-3000)}`);
    });
    expect(evaluated).toMatchObject({ status: 'completed', verdict: 'accepted' });
  },
);
