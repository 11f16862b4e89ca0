// Magic-link and register flows end to end, with the mail read from the outbox or from a local SMTP server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastMailTo, outbox, tokenFromLink } from '../helpers/mail.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { decodeQuotedPrintable, type SmtpServer, startSmtpServer } from '../helpers/smtp.js';

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app?.stop();
});

const post = (path: string, json: unknown, s: TestApp = app) => s.request(path, { method: 'POST', json });

describe('magic link', () => {
  it('mails a link for a new address, and signing in with it creates the account', async () => {
    const email = 'newcomer@kforge.test';
    const r = await post('/auth/magic-link', { email, application: 'kernelforge' });
    expect(r.status).toBe(200);
    const { message } = (await r.json()) as { message: string };
    expect(message.length).toBeGreaterThan(0);

    const mail = await lastMailTo(app, email);
    expect(mail.text).toContain(`${app.ctx.config.publicUrl}/magic-link-login?token=`);
    const token = tokenFromLink(mail.text, 'magic-link-login');

    const login = await post('/auth/login/magic-link', { token });
    expect(login.status).toBe(200);
    const { access_token } = (await login.json()) as { access_token: string };
    const me = (await (await app.request('/auth/users/me', { token: access_token })).json()) as {
      email: string;
      created_at: string;
      is_superuser: boolean;
    };
    expect(me.email).toBe(email);
    expect(me.is_superuser).toBe(false);
    // The web counts a sign-up when the account is under 5 minutes old.
    expect(Date.now() - Date.parse(me.created_at)).toBeLessThan(300_000);
  });

  it('answers the same whether or not the address has an account', async () => {
    const { user } = await app.createUser();
    const known = await post('/auth/magic-link', { email: user.email, application: 'kernelforge' });
    const unknown = await post('/auth/magic-link', { email: 'never-seen@kforge.test', application: 'kernelforge' });
    expect(known.status).toBe(unknown.status);
    expect(await known.json()).toEqual(await unknown.json());
  });

  it('signs an existing user in as themselves', async () => {
    const { user } = await app.createUser({ full_name: 'Ada' });
    await post('/auth/magic-link', { email: user.email });
    const token = tokenFromLink((await lastMailTo(app, user.email)).text, 'magic-link-login');
    const { access_token } = (await (await post('/auth/login/magic-link', { token })).json()) as {
      access_token: string;
    };
    const me = (await (await app.request('/auth/users/me', { token: access_token })).json()) as {
      id: string;
      full_name: string;
    };
    expect(me).toMatchObject({ id: user.id, full_name: 'Ada' });
  });

  it('works once: a second use of the same link answers 400', async () => {
    const email = 'once@kforge.test';
    await post('/auth/magic-link', { email });
    const token = tokenFromLink((await lastMailTo(app, email)).text, 'magic-link-login');
    expect((await post('/auth/login/magic-link', { token })).status).toBe(200);
    const again = await post('/auth/login/magic-link', { token });
    expect(again.status).toBe(400);
    expect(await again.json()).toEqual({ detail: 'Invalid or expired token' });
  });

  it('expires after 15 minutes', async () => {
    const email = 'late@kforge.test';
    await post('/auth/magic-link', { email });
    const token = tokenFromLink((await lastMailTo(app, email)).text, 'magic-link-login');
    // Age the stored token by 16 minutes instead of waiting.
    await app.ctx.db.query(
      "UPDATE one_time_tokens SET expires_at = now() - interval '1 minute', created_at = now() - interval '16 minutes' WHERE email = $1",
      [email],
    );
    expect((await post('/auth/login/magic-link', { token })).status).toBe(400);
  });

  it('answers 400 for an unknown token and 422 for a missing one or a bad address', async () => {
    expect((await post('/auth/login/magic-link', { token: 'made-up' })).status).toBe(400);
    const missing = await post('/auth/login/magic-link', {});
    expect(missing.status).toBe(422);
    expect(((await missing.json()) as { detail: Array<{ loc: unknown[] }> }).detail[0]?.loc).toEqual(['body', 'token']);
    expect((await post('/auth/magic-link', { email: 'not-an-address' })).status).toBe(422);
  });

  it('stores only hashes of one-time tokens', async () => {
    const email = 'hashed@kforge.test';
    await post('/auth/magic-link', { email });
    const token = tokenFromLink((await lastMailTo(app, email)).text, 'magic-link-login');
    const rows = await app.ctx.db.query<{ token_hash: string }>(
      'SELECT token_hash FROM one_time_tokens WHERE email = $1',
      [email],
    );
    expect(rows.length).toBe(1);
    expect(rows[0]?.token_hash).not.toContain(token);
  });
});

describe('email verification then register', () => {
  it('registers with name and password, answers {token, user}, and the password then works', async () => {
    const email = 'register@kforge.test';
    const r = await post('/auth/users/register/email-verification-token', {
      email,
      application: 'kernelforge',
      full_name: 'Grace Hopper',
      password: 'cobol-forever',
    });
    expect(r.status).toBe(200);
    const mail = await lastMailTo(app, email);
    expect(mail.text).toContain(`${app.ctx.config.publicUrl}/verify-email?token=`);
    expect(mail.text).not.toContain('cobol-forever');
    const token = tokenFromLink(mail.text, 'verify-email');

    const reg = await post('/auth/users/register', { email_verification_token: token });
    expect(reg.status).toBe(200);
    const body = (await reg.json()) as {
      token: { access_token: string; token_type: string };
      user: Record<string, unknown>;
    };
    expect(body.token.access_token.length).toBeGreaterThan(20);
    expect(body.token.token_type).toBe('bearer');
    expect(body.user).toMatchObject({ email, full_name: 'Grace Hopper', is_superuser: false });
    expect(JSON.stringify(body)).not.toMatch(/hash|scrypt/);

    const login = await app.request('/auth/login/access-token', {
      method: 'POST',
      body: new URLSearchParams({ username: email, password: 'cobol-forever' }),
    });
    expect(login.status).toBe(200);
    expect((await post('/auth/users/register', { email_verification_token: token })).status).toBe(400);
  });

  it('registers with the address alone (the web sends only {email, application})', async () => {
    const email = 'plain-register@kforge.test';
    await post('/auth/users/register/email-verification-token', { email, application: 'kernelforge' });
    const token = tokenFromLink((await lastMailTo(app, email)).text, 'verify-email');
    const reg = await post('/auth/users/register', { email_verification_token: token });
    expect(reg.status).toBe(200);
    expect(((await reg.json()) as { user: { full_name: unknown } }).user.full_name).toBeNull();
  });

  it('answers the same for an existing address, mailing a sign-in link instead of a verification link', async () => {
    const { user } = await app.createUser();
    const before = (await outbox(app)).length;
    const r = await post('/auth/users/register/email-verification-token', { email: user.email });
    expect(r.status).toBe(200);
    const mails = await outbox(app);
    expect(mails.length).toBe(before + 1);
    expect(mails[0]?.text).toContain('/magic-link-login?token=');
    expect(mails[0]?.text).not.toContain('/verify-email?token=');
  });

  it('answers 400 for an unknown token, 422 for a missing one or a short password', async () => {
    expect((await post('/auth/users/register', { email_verification_token: 'nope' })).status).toBe(400);
    expect((await post('/auth/users/register', {})).status).toBe(422);
    expect(
      (await post('/auth/users/register/email-verification-token', { email: 'short@kforge.test', password: 'abc' }))
        .status,
    ).toBe(422);
  });

  it('limits mails per address with 429', async () => {
    const limited = await createTestApp({ env: { KFORGE_MAIL_PER_HOUR: '2' } });
    try {
      const ask = () => post('/auth/magic-link', { email: 'flood@kforge.test' }, limited);
      expect((await ask()).status).toBe(200);
      expect((await ask()).status).toBe(200);
      const r = await ask();
      expect(r.status).toBe(429);
      expect(r.headers.get('retry-after')).toBeTruthy();
    } finally {
      await limited.stop();
    }
  });
});

describe('SMTP delivery', () => {
  let smtp: SmtpServer;
  let withSmtp: TestApp;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    withSmtp = await createTestApp({ env: { SMTP_URL: smtp.url, MAIL_FROM: 'Kernelforge <forge@kforge.test>' } });
  });
  afterAll(async () => {
    await withSmtp?.stop();
    await smtp?.close();
  });

  it('sends the magic link through the SMTP server, and the link signs in', async () => {
    const email = 'smtp-user@kforge.test';
    expect((await post('/auth/magic-link', { email, application: 'kernelforge' }, withSmtp)).status).toBe(200);
    const mail = await smtp.waitFor((m) => m.to.includes(email));
    expect(mail.from).toBe('forge@kforge.test');
    const token = tokenFromLink(decodeQuotedPrintable(mail.data), 'magic-link-login');
    const login = await post('/auth/login/magic-link', { token }, withSmtp);
    expect(login.status).toBe(200);
    // With SMTP configured nothing is kept in the outbox.
    expect(await outbox(withSmtp)).toEqual([]);
  });

  it('answers 502 when the SMTP server refuses the mail', async () => {
    const refusing = await startSmtpServer({ rejectAll: true });
    const s = await createTestApp({ env: { SMTP_URL: refusing.url }, logLevel: 'silent' });
    try {
      const r = await post('/auth/magic-link', { email: 'bounce@kforge.test' }, s);
      expect(r.status).toBe(502);
      expect(((await r.json()) as { detail: string }).detail).toMatch(/mail server/);
    } finally {
      await s.stop();
      await refusing.close();
    }
  });
});
