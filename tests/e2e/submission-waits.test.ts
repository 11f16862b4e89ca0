// Issue 35 item 3 in real Chromium against the real server: a submission's page says why it has no verdict yet, as a
// session's does: its place in the device's queue, what its runner reports now (its waits for the timing lock and
// for quiet included, with their cause and estimate), and why it waits again after a try ended without a result. A stand-in runner (the runner API, over HTTP) holds the jobs, so every wait is made on cue.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, openPage, startHarness } from './harness';

const RUNNER_TOKEN = 'e2e-waits-runner-token-0123456789';
let h: Harness;
let token = '';

const runner = (path: string, body: unknown) =>
  h.server
    .request(`/api/v1/runner/${path}`, { method: 'POST', token: RUNNER_TOKEN, json: body })
    .then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> }));

async function submit(device: string): Promise<string> {
  const res = await h.server.request('/api/v1/submission', {
    method: 'POST',
    token,
    json: { problem_name: '19_ReLU', device, language: 'c', source: 'void solution() {}' },
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

beforeAll(async () => {
  h = await startHarness({ KFORGE_RUNNER_TOKEN: RUNNER_TOKEN });
  token = (await h.server.createUser({ password: 'submission waits password' })).token;
}, 240_000);

afterAll(async () => {
  await h?.close();
});

describe('waits explained on submissions', () => {
  it('names the queue place, the runner’s stage, its lock and quiet waits and a retry’s cause, live', async () => {
    const device = {
      id: 'cpu-waits',
      kind: 'cpu',
      name: 'Held CPU',
      cores: 1,
      peaks: { bandwidth_gbps: 20, fp32_gflops: 200, source: 'measured' },
      available: true,
      runners: 1,
      languages: ['c', 'cpp'],
    };
    const runnerId = (await runner('register', { name: 'e2e-waits', devices: [device] })).body.runner_id as string;
    const first = await submit(device.id);
    const second = await submit(device.id);

    const { context, page } = await openPage(h, token);
    const wait = page.getByTestId('submission-wait');
    await page.goto(`/leaderboard/submission/${second}`);
    await wait
      .getByText('Waiting for a runner on cpu-waits: 1 evaluation ahead of it, 0 running now.', { exact: false })
      .waitFor();

    // The runner takes the first: the second is next in line, one running; the first says what runs.
    const claimed = await runner('claim', { runner_id: runnerId, devices: [device.id], wait_ms: 5000 });
    const job = claimed.body.job as { job_id: string; lease_token: string };
    expect(job).toBeTruthy();
    await wait.getByText('Waiting for a runner on cpu-waits: next in line, 1 running now.', { exact: false }).waitFor();
    await page.goto(`/leaderboard/submission/${first}`);
    await wait.getByText(/^Evaluating: Starting · \d+ s so far\./).waitFor();
    const beat = await runner(`jobs/${job.job_id}/heartbeat`, {
      runner_id: runnerId,
      lease_token: job.lease_token,
      progress: { stage: 'correctness', case_index: 2, case_count: 5, samples: 0 },
    });
    expect(beat.status).toBe(200);
    await wait.getByText(/^Evaluating: Checking case 2 of 5 · \d+ s so far\./).waitFor();

    // The runner's own waits, each with its cause and an estimate: the timing lock (what holds it, for about how
    // long), then quiet (the busy cores seen, the longest it waits).
    const since = new Date(Date.now() - 30_000).toISOString();
    const lock = await runner(`jobs/${job.job_id}/heartbeat`, {
      runner_id: runnerId,
      lease_token: job.lease_token,
      progress: {
        stage: 'lock',
        case_index: 0,
        case_count: 2,
        samples: 0,
        wait: {
          since,
          max_seconds: 120,
          holder: 'held by a ranked evaluation, timing case 2 of 5',
          holder_until: new Date(Date.now() + 600_000).toISOString(),
        },
      },
    });
    expect(lock.status).toBe(200);
    await wait
      .getByText(
        /^Evaluating: Waiting for the timing lock \(one evaluation is timed at a time on this machine\): held by a ranked evaluation, timing case 2 of 5, about (9|10) min \d\d s more · waiting \d+ s, at most 2 min 00 s, then it is timed anyway · \d+ s so far/,
      )
      .waitFor();
    const quiet = await runner(`jobs/${job.job_id}/heartbeat`, {
      runner_id: runnerId,
      lease_token: job.lease_token,
      progress: {
        stage: 'quiet',
        case_index: 0,
        case_count: 0,
        samples: 0,
        wait: { since, max_seconds: 60, busy_cores: 1.6, cores: 2, quiet_below: 0.5 },
      },
    });
    expect(quiet.status).toBe(200);
    await wait
      .getByText(
        /^Evaluating: Waiting for the machine to quiet before timing again: other work keeps 1\.6 of 2 cores busy \(quiet is under 0\.5\) · waiting \d+ s, at most 1 min 00 s, then it is timed anyway and flagged · \d+ s so far/,
      )
      .waitFor();
    // The waited time is counted from the runner's start of the wait (30 s before it was reported), not from the report.
    const shown = (await wait.textContent()) ?? '';
    expect(Number(/waiting (\d+) s/.exec(shown)?.[1])).toBeGreaterThanOrEqual(30);

    // A try that ends without a result: the submission waits again, and its page says why.
    const failed = await runner(`jobs/${job.job_id}/result`, {
      runner_id: runnerId,
      lease_token: job.lease_token,
      error: 'the compiler was killed (out of memory)',
    });
    expect(failed.status).toBe(200);
    await wait.getByText('It waits again:', { exact: false }).waitFor({ timeout: 20_000 });
    expect(await wait.textContent()).toContain('the compiler was killed (out of memory)');
    await context.close();

    // The API as the page reads it.
    const res = await h.server.request(`/api/v1/submission/${second}/progress`, { token });
    const progress = (await res.json()) as { phase: string; queue: { ahead: number; running: number } | null };
    expect(progress.phase).toBe('queued');
    // Another user may not read it.
    const other = (await h.server.createUser({ password: 'another waits password' })).token;
    expect((await h.server.request(`/api/v1/submission/${second}/progress`, { token: other })).status).toBe(404);
  }, 120_000);
});
