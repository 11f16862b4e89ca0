// Issue 35 ("the admin's jobs in flight have no owner, link or cancel") in real Chromium against the real server: a
// stand-in runner (the runner API over HTTP) holds a submission's evaluation and a session attempt's; the admin's
// status page names each job's owner, links the work, and its Cancel (asked twice) stops that work for its owner.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, openPage, startHarness } from './harness';

const RUNNER_TOKEN = 'e2e-admin-jobs-runner-token-0123456789';
let h: Harness;
let user: { token: string; email: string };
let stopBeating = () => {};

const runner = (path: string, body: unknown) =>
  h.server
    .request(`/api/v1/runner/${path}`, { method: 'POST', token: RUNNER_TOKEN, json: body })
    .then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> }));

async function json<T>(path: string, init: RequestInit & { json?: unknown } = {}): Promise<T> {
  const res = await h.server.request(path, { token: user.token, ...init });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

beforeAll(async () => {
  h = await startHarness({ KFORGE_RUNNER_TOKEN: RUNNER_TOKEN });
  const made = await h.server.createUser({ password: 'admin jobs password' });
  user = { token: made.token, email: made.user.email };
}, 240_000);

afterAll(async () => {
  stopBeating();
  await h?.close();
});

describe("the admin's jobs in flight", () => {
  it('shows owner and link, and Cancel stops the submission and the session', async () => {
    const device = {
      id: 'cpu-admin',
      kind: 'cpu',
      name: 'Held CPU',
      cores: 1,
      peaks: { bandwidth_gbps: 20, fp32_gflops: 200, source: 'measured' },
      available: true,
      runners: 1,
      languages: ['c', 'cpp'],
    };
    const runnerId = (await runner('register', { name: 'e2e-admin', devices: [device] })).body.runner_id as string;
    const submission = await json<{ id: string }>('/api/v1/submission', {
      method: 'POST',
      json: { problem_name: '19_ReLU', device: device.id, language: 'c', source: 'void solution() {}' },
    });
    const session = await json<{ id: string }>('/api/v1/agent-session', {
      method: 'POST',
      json: { problem_name: '19_ReLU', device: device.id, max_attempts: 1 },
    });
    // The stand-in takes both evaluations (the attempt's once the tuner has written it) and holds them.
    const held: { job_id: string; lease_token: string }[] = [];
    for (let i = 0; held.length < 2 && i < 60; i++) {
      const claimed = await runner('claim', { runner_id: runnerId, devices: [device.id], wait_ms: 1000 });
      if (claimed.body.job) held.push(claimed.body.job as { job_id: string; lease_token: string });
    }
    expect(held).toHaveLength(2);
    // A live runner beats for the jobs it holds (a silent one counts as dead after 2.5 beats and loses them).
    const beat = setInterval(() => {
      for (const job of held)
        void runner(`jobs/${job.job_id}/heartbeat`, { runner_id: runnerId, lease_token: job.lease_token }).catch(
          () => undefined,
        );
    }, 2000);
    stopBeating = () => clearInterval(beat);
    const { context, page } = await openPage(h, h.server.admin.token);
    await page.goto('/admin/status');
    const jobs = page.getByTestId('job-in-flight');
    const sub = jobs.filter({ hasText: 'Submission on 19_ReLU' });
    const att = jobs.filter({ hasText: /Attempt #1 of / });
    await sub.waitFor();
    await att.waitFor();
    expect(await sub.getByTestId('job-owner').textContent()).toBe(user.email);
    expect(await att.getByTestId('job-owner').textContent()).toBe(user.email);
    expect(await sub.getByRole('link', { name: 'Submission on 19_ReLU' }).getAttribute('href')).toBe(
      `/leaderboard/submission/${submission.id}`,
    );
    expect(await att.getByRole('link').getAttribute('href')).toMatch(
      new RegExp(`^/kernels/${session.id}/attempts/[0-9a-f-]{36}$`),
    );

    // Cancel asks first, then the submission fails with the reason its owner reads.
    await sub.getByRole('button', { name: /^Cancel / }).click();
    await page.getByRole('alertdialog').getByText('Cancel this job? Submission on 19_ReLU stops').waitFor();
    await page.getByRole('button', { name: 'Cancel the job' }).click();
    const toast = page.getByText('Job cancelled: the submission failed, cancelled by an administrator');
    await toast.waitFor();
    // The toast goes by itself once the pointer is off it (it stays while hovered); the next Cancel is clicked as
    // a person would, once nothing lies over it.
    await page.mouse.move(5, 5);
    await toast.waitFor({ state: 'detached', timeout: 15_000 });
    const failed = await json<{ status: string; error: string | null }>(
      `/api/v1/leaderboard/submission/${submission.id}`,
    );
    expect(failed).toMatchObject({ status: 'failed', error: 'Cancelled by an administrator' });

    await att.getByRole('button', { name: /^Cancel / }).click();
    await page.getByRole('button', { name: 'Cancel the job' }).click();
    await page.getByText('Job cancelled: its session is stopped').waitFor();
    const stopped = await json<{ status: string; generation_attempts: { status: string }[] }>(
      `/api/v1/agent-session/${session.id}`,
    );
    expect(stopped.status).toBe('stopped');
    expect(stopped.generation_attempts.map((a) => a.status)).toEqual(['stopped']);
    await jobs.first().waitFor({ state: 'detached' });
    stopBeating();

    // The runner's late results are refused: the jobs are no longer its.
    for (const job of held) {
      const late = await runner(`jobs/${job.job_id}/result`, {
        runner_id: runnerId,
        lease_token: job.lease_token,
        error: 'late',
      });
      expect(late.status).toBe(409);
    }
    // Not twice.
    const again = await h.server.request(`/api/v1/admin/jobs/${held[0]?.job_id}/cancel`, {
      method: 'POST',
      token: h.server.admin.token,
    });
    expect(again.status).toBe(409);
    await context.close();
  }, 180_000);
});
