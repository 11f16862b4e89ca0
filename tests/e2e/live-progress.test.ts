// Issue 35 item 10 in real Chromium against the real server: a session's live progress does not contradict itself.
// Its device is served by a stand-in runner (the runner API over HTTP) that never claims, so the first attempt's
// evaluation waits in the queue: the box says it is waiting for a runner, beside the queue line, not "compiling,
// checking, timing". An instruction of one attempt reads "up to 1 attempt", and the session's Stop and the
// instruction's Stop are told apart.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, openPage, startHarness } from './harness';

const RUNNER_TOKEN = 'e2e-live-runner-token-0123456789';
let h: Harness;
let token = '';

async function json<T>(path: string, init: RequestInit & { json?: unknown } = {}): Promise<T> {
  const res = await h.server.request(path, { token, ...init });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

beforeAll(async () => {
  h = await startHarness({ KFORGE_RUNNER_TOKEN: RUNNER_TOKEN });
  token = (await h.server.createUser({ password: 'live progress password' })).token;
}, 240_000);

afterAll(async () => {
  await h?.close();
});

describe('live progress', () => {
  it('says an attempt whose evaluation is queued is waiting for a runner, and names whose Stop is whose', async () => {
    const device = {
      id: 'cpu-live',
      kind: 'cpu',
      name: 'Held CPU',
      cores: 1,
      peaks: { bandwidth_gbps: 20, fp32_gflops: 200, source: 'measured' },
      available: true,
      runners: 1,
      languages: ['c', 'cpp'],
    };
    const registeredRes = await h.server.request('/api/v1/runner/register', {
      method: 'POST',
      token: RUNNER_TOKEN,
      json: { name: 'e2e-live', devices: [device] },
    });
    expect(registeredRes.status).toBe(200);
    const session = await json<{ id: string }>('/api/v1/agent-session', {
      method: 'POST',
      json: { problem_name: '19_ReLU', device: device.id, max_attempts: 1 },
    });
    const { context, page } = await openPage(h, token);
    await page.goto(`/kernels/${session.id}`);
    const box = page.getByTestId('session-progress');
    await box
      .getByTestId('progress-horizon')
      .getByText(/^Waiting: next in line, 0 running$/)
      .waitFor({ timeout: 60_000 });
    expect(await box.getByTestId('progress-phase').textContent()).toBe('waiting for a runner');
    // The phase chips still mark where it is: the evaluation's.
    expect(await box.locator('li[aria-current="step"]').textContent()).toBe('compiling, checking, timing');
    expect(await page.getByTestId('progress-count').textContent()).toBe('Attempt 1 of 1');
    // One attempt is one attempt.
    await page.getByText('up to 1 attempt', { exact: true }).waitFor();
    // Two Stop buttons, each saying what it stops.
    await page.getByRole('button', { name: 'Stop session' }).waitFor();
    expect(await page.getByRole('button', { name: /^Stop instruction / }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Stop', exact: true }).count()).toBe(0);
    // The live status's dot pulses, but stands still for someone who asked for less motion (as this context does).
    const pulse = page.locator('[class*="animate-pulse"]').first();
    expect(await pulse.evaluate((e) => getComputedStyle(e).animationName)).toBe('none');
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    expect(await pulse.evaluate((e) => getComputedStyle(e).animationName)).toBe('pulse');
    await page.emulateMedia({ reducedMotion: 'reduce' });

    // The runner takes it and reports a stage, then nothing: the line says for how long it is unchanged.
    const runner = (path: string, body: unknown) =>
      h.server.request(`/api/v1/runner/${path}`, { method: 'POST', token: RUNNER_TOKEN, json: body });
    // Registered again first: a runner silent for 2.5 heartbeats counts as dead, and this one has only waited.
    const again = (await (await runner('register', { name: 'e2e-live', devices: [device] })).json()) as {
      runner_id: string;
    };
    const claimed = (await (
      await runner('claim', { runner_id: again.runner_id, devices: [device.id], wait_ms: 5000 })
    ).json()) as { job: { job_id: string; lease_token: string } };
    const beat = await runner(`jobs/${claimed.job.job_id}/heartbeat`, {
      runner_id: again.runner_id,
      lease_token: claimed.job.lease_token,
      progress: { stage: 'correctness', case_index: 5, case_count: 5, samples: 0 },
    });
    expect(beat.status).toBe(200);
    const line = box.getByTestId('progress-evaluation');
    await line.getByText('Checking case 5 of 5', { exact: true }).waitFor({ timeout: 20_000 });
    // A heartbeat with no new stage: alive, nothing new to say.
    await runner(`jobs/${claimed.job.job_id}/heartbeat`, {
      runner_id: again.runner_id,
      lease_token: claimed.job.lease_token,
    });
    await line.getByText(/^Checking case 5 of 5 · unchanged for 1\d s$/).waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Stop session' }).click();
    await page.getByText('Session stopped').first().waitFor();
    await context.close();
  }, 120_000);
});
