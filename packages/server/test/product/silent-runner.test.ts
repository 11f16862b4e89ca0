// A runner that stops answering mid-job (killed): its job is re-queued once it was silent for
// KFORGE_RUNNER_DEAD_HEARTBEATS heartbeats, long before the lease runs out; the submission says why it waits; the
// dead runner leaves admin/status; the moves are logged (JSON lines) and counted in /metrics with evaluation
// durations and dead letters; claim long-polls stay out of the latency histogram; request ids are honoured.
import type { Submission } from '@kernelforge/sdk';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { captureLog } from '../helpers/log.js';
import type { TestApp } from '../helpers/app.js';
import type { TestUser } from '../helpers/server.js';
import {
  CPU_B,
  claim,
  fakeState,
  json,
  postResult,
  registerRunner,
  RUNNER_TOKEN,
  createProductApp,
  waitFor,
} from './helpers.js';

const captured = captureLog();
let app: TestApp;
let user: TestUser;

// A 30 s lease, heartbeats every second, dead after 2 silent seconds: what is tested is that the job comes back
// long before the lease would have let it.
const LEASE_SECONDS = 30;

beforeAll(async () => {
  app = await createProductApp({
    // The reaper (background work) is what re-queues the silent runner's job.
    background: true,
    log: captured.log,
    env: {
      KFORGE_JOB_LEASE_SECONDS: String(LEASE_SECONDS),
      KFORGE_RUNNER_HEARTBEAT_SECONDS: '1',
      KFORGE_RUNNER_DEAD_HEARTBEATS: '2',
      KFORGE_REAPER_INTERVAL_MS: '200',
      KFORGE_JOB_MAX_TRIES: '2',
      KFORGE_ACCESS_LOG: '1',
    },
  });
  user = await app.createUser();
});
afterAll(() => app?.stop());

const submit = async () =>
  (
    await json<Submission>(
      app.request('/api/v1/submission', {
        method: 'POST',
        token: user.token,
        json: { problem_name: '19_ReLU', device: CPU_B.id, language: 'c', source: 'void solution(){}' },
      }),
    )
  ).body;
const submission = async (id: string) =>
  (await json<Submission>(app.request(`/api/v1/leaderboard/submission/${id}`, { token: user.token }))).body;
const beat = (runnerId: string, job: { job_id: string; lease_token: string }) =>
  json(
    app.request(`/api/v1/runner/jobs/${job.job_id}/heartbeat`, {
      method: 'POST',
      token: RUNNER_TOKEN,
      json: { runner_id: runnerId, lease_token: job.lease_token },
    }),
  );
const scrape = async () => (await app.request('/metrics', { token: app.metricsToken })).text();
const logLines = () =>
  captured.lines.map((l) => JSON.parse(l) as { time: string; level: string; msg: string; [k: string]: unknown });

test('a runner told to beat every second that goes silent mid-job: its job runs elsewhere within seconds', async () => {
  const registered = await json<{ runner_id: string; heartbeat_seconds: number; lease_seconds: number }>(
    app.request('/api/v1/runner/register', {
      method: 'POST',
      token: RUNNER_TOKEN,
      json: { name: 'doomed', devices: [CPU_B] },
    }),
  );
  expect(registered.body).toMatchObject({ heartbeat_seconds: 1, lease_seconds: LEASE_SECONDS });
  const doomed = registered.body.runner_id;
  const survivor = await registerRunner(app, [CPU_B], 'survivor');
  // Silence counts only once the server has been up for the window (runners could not reach it before).
  await new Promise((r) => setTimeout(r, 2200));

  const sub = await submit();
  const first = await claim(app, doomed, [CPU_B.id], 0);
  expect(first?.payload.target_id).toBe(sub.id);
  // It works for a while, beating every second, then is killed: no heartbeat, no result, ever.
  for (let i = 0; i < 2; i++) {
    await new Promise((r) => setTimeout(r, 700));
    expect((await beat(doomed, first as NonNullable<typeof first>)).status).toBe(200);
  }
  const lastBeat = Date.now();

  // While the survivor is busy elsewhere, the submission waits again and says why.
  const waiting = await waitFor(
    async () => {
      const s = await submission(sub.id);
      return s.status === 'queued' ? s : undefined;
    },
    { timeoutMs: 10_000, intervalMs: 100, what: 'the submission to be queued again' },
  );
  const requeuedAfter = Date.now() - lastBeat;
  expect(waiting.error).toMatch(
    /^Waiting to run again: its runner stopped answering at \d\d:\d\d:\d\d UTC; re-queued \(try 1 of 2 ended\)$/,
  );
  // Well within 30 s of the last heartbeat, and long before the 30 s lease: 2 silent seconds and a reaper pass.
  expect(requeuedAfter).toBeLessThan(8_000);

  // The dead runner is gone from admin/status; the survivor (polling) is there, then holds the job.
  const second = await claim(app, survivor, [CPU_B.id], 5000);
  expect(second?.job_id).toBe(first?.job_id);
  expect((await submission(sub.id)).error ?? null).toBeNull();
  const status = await json<{ runners: { id: string }[]; in_flight: { id: string; runner_id: string }[] }>(
    app.request('/api/v1/admin/status', { token: app.admin.token }),
  );
  expect(status.body.runners.map((r) => r.id)).toContain(survivor);
  expect(status.body.runners.map((r) => r.id)).not.toContain(doomed);
  expect(status.body.in_flight).toEqual([expect.objectContaining({ id: first?.job_id, runner_id: survivor })]);
  // /metrics shows how long it has been silent.
  const silentFor = new RegExp(`kforge_runner_heartbeat_age_seconds\\{runner_id="${doomed}"[^}]*\\} ([\\d.]+)`);
  expect(Number(silentFor.exec(await scrape())?.[1])).toBeGreaterThan(2);
  // The killed runner's late heartbeat is refused: its lease is gone.
  expect((await beat(doomed, first as NonNullable<typeof first>)).status).toBe(409);
  const done = await postResult(app, survivor, second as NonNullable<typeof second>, {
    evaluation_state: fakeState('ranked', 1.5),
  });
  expect(done.status).toBe(200);
  expect((await submission(sub.id)).status).toBe('completed');

  // A second job: an error reported, re-queued; another error on the last try: dead-lettered.
  const sub2 = await submit();
  for (const tries of [1, 2]) {
    const job = await claim(app, survivor, [CPU_B.id], 5000);
    expect(job?.payload.target_id).toBe(sub2.id);
    const r = await postResult(app, survivor, job as NonNullable<typeof job>, { error: `sandbox broke ${tries}` });
    expect(r.status).toBe(200);
    if (tries === 1) await waitFor(async () => (await submission(sub2.id)).status === 'queued', { what: 'a retry' });
  }
  expect((await submission(sub2.id)).status).toBe('failed');

  // Logged, one JSON object a line: the early re-lease (with the silent runner) and the dead letter.
  const lines = logLines();
  for (const l of lines) expect(l).toMatchObject({ time: expect.any(String), level: expect.any(String) });
  expect(lines).toContainEqual(
    expect.objectContaining({
      level: 'warn',
      msg: 'job re-leased early: its runner stopped answering',
      job: first?.job_id,
      runner: doomed,
      cause: 'runner_silent',
    }),
  );
  // Logged while serving the runner's result post: the line carries that request's id.
  expect(lines).toContainEqual(
    expect.objectContaining({
      msg: 'job re-queued after a failed try',
      error: 'sandbox broke 1',
      request_id: expect.any(String),
    }),
  );
  expect(lines).toContainEqual(expect.objectContaining({ level: 'warn', msg: 'job dead-lettered', kind: 'evaluate' }));
  expect(lines).toContainEqual(
    expect.objectContaining({ level: 'warn', msg: 'runner stopped answering; it counts as dead', runner: doomed }),
  );

  // Counted in /metrics.
  const metrics = await scrape();
  expect(metrics).toContain('kforge_lease_expiries_total{kind="evaluate",cause="runner_silent"} 1');
  expect(metrics).toContain('kforge_job_retries_total{kind="evaluate",cause="runner_silent"} 1');
  expect(metrics).toContain('kforge_job_retries_total{kind="evaluate",cause="error"} 1');
  expect(metrics).toContain('kforge_jobs_dead_total{kind="evaluate"} 1');
  expect(metrics).toContain(`kforge_evaluation_duration_seconds_count{device="${CPU_B.id}",verdict="accepted"} 1`);
  expect(metrics).toContain(`kforge_evaluation_duration_seconds_count{device="${CPU_B.id}",verdict="error"} 2`);
  expect(metrics).toMatch(
    new RegExp(
      `kforge_runner_last_heartbeat_timestamp_seconds\\{runner_id="${doomed}",name="doomed",kind="standalone"\\} \\d`,
    ),
  );
  // Claims are counted, but their long polls stay out of the latency histogram.
  expect(metrics).toMatch(
    /kforge_http_requests_total\{method="POST",route="\/api\/v1\/runner\/claim",status="200"\} \d+/,
  );
  expect(metrics).not.toContain(
    'kforge_http_request_duration_seconds_count{method="POST",route="/api/v1/runner/claim"}',
  );
  expect(metrics).toContain(
    'kforge_http_request_duration_seconds_count{method="POST",route="/api/v1/runner/jobs/:id/heartbeat"}',
  );
}, 60_000);

test('request ids: a sane X-Request-Id is honoured and returned, else one is made; one access log line a request', async () => {
  const given = await app.request('/api/v1/problems', {
    token: user.token,
    headers: { 'X-Request-Id': 'lb-7f3a.42' },
  });
  expect(given.headers.get('x-request-id')).toBe('lb-7f3a.42');
  const made = await app.request('/api/v1/problems', {
    token: user.token,
    headers: { 'X-Request-Id': 'bad id\twith "quotes"' },
  });
  expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  const none = await app.request('/healthz');
  expect(none.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);

  const access = logLines().filter((l) => l.msg === 'request');
  expect(access).toContainEqual(
    expect.objectContaining({
      level: 'info',
      method: 'GET',
      path: '/api/v1/problems',
      status: 200,
      request_id: 'lb-7f3a.42',
      ms: expect.any(Number),
    }),
  );
  expect(access).toContainEqual(expect.objectContaining({ request_id: made.headers.get('x-request-id') }));
  // Probes are left out (KFORGE_ACCESS_LOG=1): a balancer probing every second would drown the log.
  expect(access.filter((l) => l.path === '/healthz')).toEqual([]);
});
