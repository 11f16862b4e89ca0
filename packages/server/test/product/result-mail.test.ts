// Mail when a result finishes or is flagged (issue 35 item 4): the owner of a ranked submission is mailed its verdict,
// figure and link, or that it was flagged for review (the reasons, what happens next); never for a test run, never
// twice for one submission, never when they turned it off on /account (PATCH /users/me mail_results). The results
// come from a stand-in runner over the runner API; the mail is read from the outbox, or from a local SMTP stand-in.
import type { User } from '@kernelforge/sdk';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mailResult } from '../../src/domain/submissions/result-mail.js';
import type { TestApp } from '../helpers/app.js';
import { outbox } from '../helpers/mail.js';
import type { TestUser } from '../helpers/server.js';
import { decodeQuotedPrintable, startSmtpServer } from '../helpers/smtp.js';
import { CPU_B, claim, createProductApp, fakeState, json, postResult, registerRunner, waitFor } from './helpers.js';

const SOURCE =
  'void solution(const float *x, float *y, unsigned long n) { for (unsigned long i = 0; i < n; i++) y[i] = x[i] > 0 ? x[i] : 0; }\n';

async function submitAndFinish(
  app: TestApp,
  runnerId: string,
  user: TestUser,
  state: Record<string, unknown>,
  path = '/api/v1/submission',
): Promise<string> {
  const created = await json<{ id: string }>(
    app.request(path, {
      method: 'POST',
      token: user.token,
      json: { problem_name: '19_ReLU', device: CPU_B.id, language: 'c', source: SOURCE },
    }),
  );
  expect(created.status).toBe(201);
  const job = await claim(app, runnerId, [CPU_B.id]);
  expect(job?.payload.target_id).toBe(created.body.id);
  const posted = await postResult(app, runnerId, job as NonNullable<typeof job>, { evaluation_state: state });
  expect(posted.status).toBe(200);
  return created.body.id;
}

const mailsTo = async (app: TestApp, email: string) => (await outbox(app)).filter((m) => m.to === email.toLowerCase());

describe('result mail through the outbox', () => {
  let app: TestApp;
  let runnerId: string;

  beforeAll(async () => {
    app = await createProductApp({ env: { KFORGE_DAILY_SUBMISSIONS: '20', KFORGE_DAILY_TEST_RUNS: '20' } });
    runnerId = await registerRunner(app, [CPU_B]);
  });
  afterAll(() => app?.stop());

  test('a finished ranked result is mailed once, with its verdict, figure and link; a test run never', async () => {
    const user = await app.createUser({ full_name: 'Mailed' });
    // A test run first: it is never mailed.
    const testRun = await submitAndFinish(app, runnerId, user, fakeState('benchmark', 1.5), '/api/v1/submission/test');
    await mailResult(app.ctx, testRun);
    expect(await mailsTo(app, user.user.email)).toEqual([]);

    const id = await submitAndFinish(app, runnerId, user, fakeState('ranked', 1.25));
    const [mail] = await waitFor(
      async () => {
        const mails = await mailsTo(app, user.user.email);
        return mails.length > 0 && mails;
      },
      { what: 'the result mail' },
    );
    expect(mail?.subject).toBe('Your result on 19_ReLU: accepted, 2.00x');
    expect(mail?.text).toContain(
      `Your submission on 19_ReLU (${CPU_B.id}) finished: accepted, 2.00x the baseline (1.250 ms).`,
    );
    expect(mail?.text).toContain(`${app.ctx.config.publicUrl}/leaderboard/submission/${id}`);
    expect(mail?.text).toContain(`${app.ctx.config.publicUrl}/account`);
    expect(mail?.text).not.toContain('flagged');

    // Written again (a retried write, a second call): still one mail.
    await mailResult(app.ctx, id);
    await mailResult(app.ctx, id);
    expect(await mailsTo(app, user.user.email)).toHaveLength(1);
    expect((await mailsTo(app, user.user.email)).some((m) => m.text.includes(testRun))).toBe(false);
  });

  test('a flagged result says why and what happens next; a rejected one says its verdict', async () => {
    const user = await app.createUser({ full_name: 'Flagged' });
    const state = fakeState('ranked', 0.5);
    Object.assign(state.benchmarking_result as object, {
      flagged_for_review: true,
      review_reasons: ['timed while other work kept 1.2 of 2 cores busy'],
    });
    const id = await submitAndFinish(app, runnerId, user, state);
    const mail = await waitFor(async () => (await mailsTo(app, user.user.email))[0], { what: 'the flag mail' });
    expect(mail.subject).toBe('Your result on 19_ReLU was flagged for review');
    expect(mail.text).toContain('finished: accepted, 2.00x the baseline (0.500 ms).');
    expect(mail.text).toContain('It was flagged for review: timed while other work kept 1.2 of 2 cores busy.');
    expect(mail.text).toContain('you get a mail when it is approved');
    expect(mail.text).toContain(`/leaderboard/submission/${id}`);
    await mailResult(app.ctx, id);
    expect(await mailsTo(app, user.user.email)).toHaveLength(1);

    const wrong = await submitAndFinish(app, runnerId, user, fakeState('ranked', null));
    const second = await waitFor(
      async () => {
        const mails = await mailsTo(app, user.user.email);
        return mails.length === 2 && mails.find((m) => m.text.includes(wrong));
      },
      { what: 'the second result mail' },
    );
    expect(second.subject).toBe('Your result on 19_ReLU: incorrect');
    expect(second.text).toContain('finished: incorrect: incorrect: y[3] differs.');
  });

  test('turned off on /account (PATCH /users/me), no mail is sent; the display name is left as it was', async () => {
    const user = await app.createUser({ full_name: 'Quiet' });
    const named = await json<User>(
      app.request('/api/v1/users/me', { method: 'PATCH', token: user.token, json: { display_name: 'Quiet one' } }),
    );
    expect(named.body).toMatchObject({ display_name: 'Quiet one', mail_results: true });
    const off = await json<User>(
      app.request('/api/v1/users/me', { method: 'PATCH', token: user.token, json: { mail_results: false } }),
    );
    expect(off).toMatchObject({ status: 200, body: { display_name: 'Quiet one', mail_results: false } });
    const read = await json<User>(app.request('/auth/users/me', { token: user.token }));
    expect(read.body.mail_results).toBe(false);
    const id = await submitAndFinish(app, runnerId, user, fakeState('ranked', 1));
    await mailResult(app.ctx, id);
    expect(await mailsTo(app, user.user.email)).toEqual([]);
    // Turned on again, a result that finished while it was off is not mailed later.
    const on = await json<User>(
      app.request('/api/v1/users/me', { method: 'PATCH', token: user.token, json: { mail_results: true } }),
    );
    expect(on.body.mail_results).toBe(true);
    await mailResult(app.ctx, id);
    expect(await mailsTo(app, user.user.email)).toEqual([]);
    const me = await json<User>(app.request('/auth/users/me', { token: user.token }));
    expect(me.body).toMatchObject({ display_name: 'Quiet one', mail_results: true });
  });
});

describe('result mail through SMTP', () => {
  test('is delivered by the configured SMTP server; a refusing one fails no result', async () => {
    const smtp = await startSmtpServer();
    const app = await createProductApp({ env: { SMTP_URL: smtp.url, MAIL_FROM: 'Kernelforge <forge@kforge.test>' } });
    try {
      const runnerId = await registerRunner(app, [CPU_B]);
      const user = await app.createUser({ full_name: 'Smtp' });
      const id = await submitAndFinish(app, runnerId, user, fakeState('ranked', 2));
      const mail = await smtp.waitFor((m) => m.to.includes(user.user.email));
      expect(mail.data).toContain('Subject: Your result on 19_ReLU: accepted, 2.00x');
      expect(decodeQuotedPrintable(mail.data)).toContain(`/leaderboard/submission/${id}`);
    } finally {
      await app.stop();
      await smtp.close();
    }
    const refusing = await startSmtpServer({ rejectAll: true });
    const broken = await createProductApp({ env: { SMTP_URL: refusing.url }, logLevel: 'silent' });
    try {
      const runnerId = await registerRunner(broken, [CPU_B]);
      const user = await broken.createUser({ full_name: 'Refused' });
      const id = await submitAndFinish(broken, runnerId, user, fakeState('ranked', 2));
      await mailResult(broken.ctx, id);
      const detail = await json<{ status: string; verdict: string }>(
        broken.request(`/api/v1/leaderboard/submission/${id}`, { token: user.token }),
      );
      expect(detail.body).toMatchObject({ status: 'completed', verdict: 'accepted' });
    } finally {
      await broken.stop();
      await refusing.close();
    }
  });
});
