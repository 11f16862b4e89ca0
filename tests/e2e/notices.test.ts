// Issue 35 item 4 in real Chromium against the real server: a result's author is told when it finishes, when it is
// flagged for review and when a reviewer approves it: in the app (Notices, with how many are new) and, for the
// decision, by mail (the outbox here, as no SMTP server is configured).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, mailTo, openPage, startHarness } from './harness';

let h: Harness;
let owner: { token: string; email: string; id: string };
let flagged = '';

beforeAll(async () => {
  h = await startHarness();
  const made = await h.server.createUser({ password: 'notices password' });
  owner = { token: made.token, email: made.user.email, id: made.user.id };
  const device = (
    (await (await h.server.request('/api/v1/devices', { token: owner.token })).json()) as {
      data: { id: string }[];
    }
  ).data[0]?.id;
  // A result flagged for review, as the runner's judge flags one over 10x (lifecycle.test inserts them the same way).
  const rows = await h.server.ctx.db.query<{ id: string }>(
    `INSERT INTO submissions (user_id, problem_name, device, language, source, status, verdict, time_ms, speedup,
       flagged_for_review, evaluation_state, finished_at)
     VALUES ($1, '20_LeakyReLU', $2, 'c', 'x', 'completed', 'accepted', 0.2, 40, true, $3, now()) RETURNING id`,
    [owner.id, device, { benchmarking_result: { review_reasons: ['speedup 40x is over 10x'] } }],
  );
  flagged = (rows[0] as { id: string }).id;
}, 240_000);

afterAll(async () => {
  await h?.close();
});

describe('notices', () => {
  it('tells the author a result finished and was flagged, then that it was approved, in the app and by mail', async () => {
    const { context, page } = await openPage(h, owner.token);
    await page.goto('/kernels/generate-kernel');
    await page.getByRole('link', { name: 'Notices: 2 new' }).click();
    await page.getByRole('heading', { level: 1, name: 'Notices' }).waitFor();
    const notices = page.getByTestId('notice');
    await notices.first().waitFor();
    expect(await notices.count()).toBe(2);
    expect(await page.locator('[data-testid="notice"][data-kind="flagged"]').textContent()).toContain(
      'Your submission on 20_LeakyReLU was flagged for review (speedup 40x is over 10x)',
    );
    expect(await page.locator('[data-testid="notice"][data-kind="finished"]').textContent()).toContain(
      'Your submission on 20_LeakyReLU finished: accepted, 40.00x.',
    );
    // Seen: the count goes.
    await page.getByRole('link', { name: 'Notices', exact: true }).waitFor();

    const decided = await h.server.request(`/api/v1/admin/reviews/${flagged}`, {
      method: 'POST',
      token: h.server.admin.token,
      json: { decision: 'approve' },
    });
    expect(decided.status).toBe(200);
    await page.goto('/sessions');
    await page.getByRole('link', { name: 'Notices: 1 new' }).click();
    await page
      .locator('[data-testid="notice"][data-kind="approved"]')
      .getByText('Your submission on 20_LeakyReLU was approved by a reviewer')
      .waitFor();
    const mail = await mailTo(h, owner.email);
    expect(mail.subject).toBe('Your result on 20_LeakyReLU was approved');
    expect(mail.text).toContain(`/leaderboard/submission/${flagged}`);
    await context.close();

    // On a phone the header does not overflow, new notices or not (the word moves to the menu; the count stays).
    const phone = await h.browser.newContext({
      reducedMotion: 'reduce',
      baseURL: h.server.url,
      viewport: { width: 390, height: 844 },
    });
    await phone.addInitScript((t) => localStorage.setItem('access_token', t), owner.token);
    const p = await phone.newPage();
    await p.goto('/notices');
    await p.getByRole('heading', { level: 1, name: 'Notices' }).waitFor();
    expect(
      await p.evaluate(
        () => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth) - window.innerWidth,
      ),
    ).toBeLessThanOrEqual(0);
    await h.server.ctx.db.query(`UPDATE submissions SET reviewed_at = now() + interval '1 minute' WHERE id = $1`, [
      flagged,
    ]);
    await p.goto('/sessions');
    await p.getByRole('link', { name: 'Notices: 1 new' }).waitFor();
    expect(
      await p.evaluate(
        () => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth) - window.innerWidth,
      ),
    ).toBeLessThanOrEqual(0);
    await phone.close();
  });
});
