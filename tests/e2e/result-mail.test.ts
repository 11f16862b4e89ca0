// Issue 35 item 4 in real Chromium against the real server: "Email me when a result finishes" on /account. Turned
// off, a ranked result sends no mail; turned on again, the next one is mailed with its verdict, figure and link (the
// outbox here, as no SMTP server is configured). A stand-in runner (the runner API, over HTTP) reports the results.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, mailTo, openPage, startHarness } from './harness';

const RUNNER_TOKEN = 'e2e-result-mail-runner-token-0123';
let h: Harness;
let owner: { token: string; email: string };

const runner = (path: string, body: unknown) =>
  h.server
    .request(`/api/v1/runner/${path}`, { method: 'POST', token: RUNNER_TOKEN, json: body })
    .then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> }));

const device = {
  id: 'cpu-mail',
  kind: 'cpu',
  name: 'Mail CPU',
  cores: 1,
  peaks: { bandwidth_gbps: 20, fp32_gflops: 200, source: 'measured' },
  available: true,
  runners: 1,
  languages: ['c', 'cpp'],
};

/** A ranked submission, claimed and reported accepted at `speedup` by the stand-in runner. */
async function finished(runnerId: string, speedup: number): Promise<string> {
  const res = await h.server.request('/api/v1/submission', {
    method: 'POST',
    token: owner.token,
    json: { problem_name: '19_ReLU', device: device.id, language: 'c', source: 'void solution() {}' },
  });
  expect(res.status).toBe(201);
  const id = ((await res.json()) as { id: string }).id;
  const claimed = await runner('claim', { runner_id: runnerId, devices: [device.id], wait_ms: 5000 });
  const job = claimed.body.job as { job_id: string; lease_token: string };
  const state = {
    verdict: 'accepted',
    mode: 'ranked',
    message: 'accepted',
    compile: { ok: true, compiler: 'cc', flags: ['-O3'], log: '', duration_ms: 10 },
    correctness: { passed: true, cases: [] },
    benchmarking_result: {
      optimized_time: 1,
      baseline_time: speedup,
      speedup,
      gbps: 1,
      gflops: 1,
      fraction_of_peak: 0.1,
      cases: [],
      flagged_for_review: false,
      review_reasons: [],
    },
    runner_seconds: 1,
    evaluated_at: new Date().toISOString(),
  };
  const posted = await runner(`jobs/${job.job_id}/result`, {
    runner_id: runnerId,
    lease_token: job.lease_token,
    evaluation_state: state,
  });
  expect(posted.status).toBe(200);
  return id;
}

beforeAll(async () => {
  h = await startHarness({ KFORGE_RUNNER_TOKEN: RUNNER_TOKEN });
  const made = await h.server.createUser({ password: 'result mail password' });
  owner = { token: made.token, email: made.user.email };
}, 240_000);

afterAll(async () => {
  await h?.close();
});

describe('result mail', () => {
  it('is turned off and on again on /account; a result is mailed only while it is on', async () => {
    const runnerId = (await runner('register', { name: 'e2e-mail', devices: [device] })).body.runner_id as string;
    const { context, page } = await openPage(h, owner.token);
    await page.goto('/account');
    const box = page.getByRole('checkbox', { name: /Email me when a result finishes/ });
    await box.waitFor();
    expect(await box.isChecked()).toBe(true);
    await box.uncheck();
    await page.getByText('No more result mail').waitFor();
    const me = async () =>
      ((await (await h.server.request('/auth/users/me', { token: owner.token })).json()) as { mail_results: boolean })
        .mail_results;
    expect(await me()).toBe(false);
    await page.reload();
    await box.waitFor();
    expect(await box.isChecked()).toBe(false);

    // Off: a finished result sends nothing. Its mail is decided just after the result is written: the decision is
    // awaited before mail is turned on again (a result finished while it was off is not mailed later).
    const quiet = await finished(runnerId, 1.5);
    for (let i = 0; i < 100; i++) {
      const [row] = await h.server.ctx.db.query<{ decided: boolean }>(
        'SELECT finish_mailed_at IS NOT NULL AS decided FROM submissions WHERE id = $1',
        [quiet],
      );
      if (row?.decided) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    await box.check();
    await page.getByText('You will be mailed when a result finishes').waitFor();
    expect(await me()).toBe(true);
    const mailed = await finished(runnerId, 2.5);
    const mail = await mailTo(h, owner.email);
    expect(mail.subject).toBe('Your result on 19_ReLU: accepted, 2.50x');
    expect(mail.text).toContain(`/leaderboard/submission/${mailed}`);
    const all = (await (await h.server.request('/api/v1/admin/outbox', { token: h.server.admin.token })).json()) as {
      data: { to: string; text: string }[];
    };
    expect(all.data.filter((m) => m.to.includes(owner.email))).toHaveLength(1);
    expect(all.data.some((m) => m.text.includes(quiet))).toBe(false);
    await context.close();
  }, 120_000);
});
