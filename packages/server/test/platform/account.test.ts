// A user's own account (issue 35 item 11): set or change the password, change the email address through a link
// mailed to the new one, delete the account (what goes and what stays: docs/api.md, "Deleting an account").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signAccessToken } from '../../src/auth/access-token.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { lastMailTo, outbox } from '../helpers/mail.js';
import { startSmtpServer } from '../helpers/smtp.js';

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app?.stop();
});

const login = (username: string, password: string) =>
  app.request('/auth/login/access-token', { method: 'POST', body: new URLSearchParams({ username, password }) });

/** A password-less account as a magic-link sign-in makes it. */
async function magicLinkUser(
  email = `ml-${Math.random().toString(36).slice(2, 8)}@kforge.test`,
): Promise<{ email: string; token: string; id: string }> {
  await app.request('/auth/magic-link', { method: 'POST', json: { email } });
  const mail = await lastMailTo(app, email);
  const m = /magic-link-login\?token=([A-Za-z0-9_%.-]+)/.exec(mail.text);
  const r = await app.request('/auth/login/magic-link', {
    method: 'POST',
    json: { token: decodeURIComponent(m?.[1] ?? '') },
  });
  const { access_token } = (await r.json()) as { access_token: string };
  const me = (await (await app.request('/auth/users/me', { token: access_token })).json()) as { id: string };
  return { email, token: access_token, id: me.id };
}

const detail = async (r: Response) => ((await r.json()) as { detail: unknown }).detail;
const confirmToken = (text: string) => {
  const m = /\/account\/confirm-email\?token=([A-Za-z0-9_%.-]+)/.exec(text);
  if (!m?.[1]) throw new Error(`no confirmation link in: ${text}`);
  return decodeURIComponent(m[1]);
};

async function accepted(userId: string, problem = '19_ReLU'): Promise<void> {
  await app.ctx.db.query(
    `INSERT INTO submissions (user_id, problem_name, device, language, source, status, verdict, time_ms, speedup, finished_at)
     VALUES ($1, $2, 'cpu-x86_64', 'c', 'void solution(){}', 'completed', 'accepted', 1.5, 2, now())`,
    [userId, problem],
  );
}

describe('PUT /api/v1/users/me/password', () => {
  it('lets a magic-link user set a first password and then sign in with it', async () => {
    const u = await magicLinkUser();
    const before = (await (await app.request('/auth/users/me', { token: u.token })).json()) as {
      has_password: boolean;
    };
    expect(before.has_password).toBe(false);
    expect((await login(u.email, 'a-new-password')).status).toBe(400);

    const r = await app.request('/api/v1/users/me/password', {
      method: 'PUT',
      token: u.token,
      json: { new_password: 'a-new-password' },
    });
    expect(r.status).toBe(200);
    expect(((await r.json()) as { message: string }).message).toMatch(/Password set/);
    const signedIn = await login(u.email, 'a-new-password');
    expect(signedIn.status).toBe(200);
    expect(((await signedIn.json()) as { access_token: string }).access_token).toBeTruthy();
    const after = (await (await app.request('/auth/users/me', { token: u.token })).json()) as { has_password: boolean };
    expect(after.has_password).toBe(true);
  });

  it('holds a new password to the registration rule (at least 8 characters)', async () => {
    const u = await magicLinkUser();
    const r = await app.request('/api/v1/users/me/password', {
      method: 'PUT',
      token: u.token,
      json: { new_password: 'short' },
    });
    expect(r.status).toBe(422);
    expect(JSON.stringify(await detail(r))).toContain('Use at least 8 characters');
  });

  it('asks a password user for the current password, and refuses a wrong one', async () => {
    const { user, token } = await app.createUser({ password: 'first-password' });
    const put = (json: unknown) => app.request('/api/v1/users/me/password', { method: 'PUT', token, json });

    const missing = await put({ new_password: 'second-password' });
    expect(missing.status).toBe(422);
    expect(JSON.stringify(await detail(missing))).toContain('Give your current password');
    const wrong = await put({ current_password: 'not-it-at-all', new_password: 'second-password' });
    expect(wrong.status).toBe(400);
    expect(await detail(wrong)).toMatch(/current password is not right/);
    expect((await login(user.email, 'first-password')).status).toBe(200);

    const ok = await put({ current_password: 'first-password', new_password: 'second-password' });
    expect(ok.status).toBe(200);
    expect((await login(user.email, 'first-password')).status).toBe(400);
    expect((await login(user.email, 'second-password')).status).toBe(200);
    // The session that changed it goes on.
    expect((await app.request('/auth/users/me', { token })).status).toBe(200);
  });

  it('replaces a forgotten password without it after a sign-in by emailed link, for 15 minutes', async () => {
    const { user } = await app.createUser({ password: 'forgotten-password' });
    const put = (token: string, json: unknown) =>
      app.request('/api/v1/users/me/password', { method: 'PUT', token, json });
    // A session signed in by password still gives it, and the refusal says what to do instead.
    const byPassword = ((await (await login(user.email, 'forgotten-password')).json()) as { access_token: string })
      .access_token;
    const refused = await put(byPassword, { new_password: 'remembered-password' });
    expect(refused.status).toBe(422);
    expect(JSON.stringify(await detail(refused))).toContain('Forgot it? Sign in with an email link');

    // The link mailed to the account's address signs in the same account, which may now set a new one.
    const byLink = await magicLinkUser(user.email);
    expect(byLink.id).toBe(user.id);
    // A current password given is still checked.
    const wrong = await put(byLink.token, { current_password: 'not-it-at-all', new_password: 'remembered-password' });
    expect(wrong.status).toBe(400);
    const ok = await put(byLink.token, { new_password: 'remembered-password' });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { message: string }).message).toMatch(/Password changed/);
    expect((await login(user.email, 'forgotten-password')).status).toBe(400);
    expect((await login(user.email, 'remembered-password')).status).toBe(200);

    // A link's session issued 16 minutes ago is past the window: the current password again.
    const stale = await signAccessToken(app.ctx.config.secret, user.id, {
      expiresInSeconds: 3600,
      now: Date.now() - 16 * 60_000,
      via: 'link',
    });
    const late = await put(stale, { new_password: 'third-password-here' });
    expect(late.status).toBe(422);
    expect((await login(user.email, 'remembered-password')).status).toBe(200);
  });

  it('refuses API tokens, whatever their scopes', async () => {
    const { token } = await app.createUser();
    const created = await app.request('/api/v1/tokens', { method: 'POST', token, json: { name: 'ci' } });
    const apiToken = ((await created.json()) as { token: string }).token;
    const r = await app.request('/api/v1/users/me/password', {
      method: 'PUT',
      token: apiToken,
      json: { new_password: 'a-new-password' },
    });
    expect(r.status).toBe(403);
    expect(await detail(r)).toMatch(/API tokens cannot/);
  });
});

describe('changing the email address', () => {
  it('changes it only once the link mailed to the new address is used; tokens keep working', async () => {
    const { user, token } = await app.createUser({ password: 'pw-for-email' });
    const created = await app.request('/api/v1/tokens', { method: 'POST', token, json: { name: 'ci' } });
    const apiToken = ((await created.json()) as { token: string }).token;
    const next = `moved-${Math.random().toString(36).slice(2, 8)}@kforge.test`;

    const missing = await app.request('/api/v1/users/me/email', { method: 'POST', token, json: { new_email: next } });
    expect(missing.status).toBe(422);
    const asked = await app.request('/api/v1/users/me/email', {
      method: 'POST',
      token,
      json: { new_email: next.toUpperCase(), current_password: 'pw-for-email' },
    });
    expect(asked.status).toBe(200);
    expect(((await asked.json()) as { message: string }).message).toContain(next);
    // Not yet changed.
    let me = (await (await app.request('/auth/users/me', { token })).json()) as { email: string };
    expect(me.email).toBe(user.email);

    const link = confirmToken((await lastMailTo(app, next)).text);
    const done = await app.request('/api/v1/users/me/email/confirm', { method: 'POST', token, json: { token: link } });
    expect(done.status).toBe(200);
    expect(((await done.json()) as { email: string }).email).toBe(next);
    me = (await (await app.request('/auth/users/me', { token })).json()) as { email: string };
    expect(me.email).toBe(next);
    expect((await app.request('/api/v1/tokens', { token: apiToken })).status).toBe(200);
    expect((await login(next, 'pw-for-email')).status).toBe(200);
    expect((await login(user.email, 'pw-for-email')).status).toBe(400);
    // The old address is told.
    expect((await lastMailTo(app, user.email)).subject).toBe('Your Kernelforge address was changed');
    // The link works once.
    const again = await app.request('/api/v1/users/me/email/confirm', { method: 'POST', token, json: { token: link } });
    expect(again.status).toBe(400);
    expect(await detail(again)).toMatch(/invalid, used or expired/);
  });

  it('answers a taken address as any other, and refuses it with 409 when its link is used', async () => {
    const other = await app.createUser();
    const u = await magicLinkUser();
    const free = `free-${Math.random().toString(36).slice(2, 8)}@kforge.test`;
    const askTaken = await app.request('/api/v1/users/me/email', {
      method: 'POST',
      token: u.token,
      json: { new_email: other.user.email },
    });
    const askFree = await app.request('/api/v1/users/me/email', {
      method: 'POST',
      token: u.token,
      json: { new_email: free },
    });
    expect(askTaken.status).toBe(askFree.status);
    const strip = (m: string) => m.replaceAll(other.user.email, 'X').replaceAll(free, 'X');
    expect(strip(((await askTaken.json()) as { message: string }).message)).toBe(
      strip(((await askFree.json()) as { message: string }).message),
    );

    const link = confirmToken((await lastMailTo(app, other.user.email)).text);
    const r = await app.request('/api/v1/users/me/email/confirm', {
      method: 'POST',
      token: u.token,
      json: { token: link },
    });
    expect(r.status).toBe(409);
    expect(await detail(r)).toMatch(/already belongs to another Kernelforge account/);
    const me = (await (await app.request('/auth/users/me', { token: u.token })).json()) as { email: string };
    expect(me.email).toBe(u.email);
  });

  it('refuses the current address, and a link used by another account', async () => {
    const a = await magicLinkUser();
    const b = await app.createUser();
    const same = await app.request('/api/v1/users/me/email', {
      method: 'POST',
      token: a.token,
      json: { new_email: a.email },
    });
    expect(same.status).toBe(400);
    expect(await detail(same)).toMatch(/already your address/);

    const next = `elsewhere-${Math.random().toString(36).slice(2, 8)}@kforge.test`;
    await app.request('/api/v1/users/me/email', { method: 'POST', token: a.token, json: { new_email: next } });
    const link = confirmToken((await lastMailTo(app, next)).text);
    const r = await app.request('/api/v1/users/me/email/confirm', {
      method: 'POST',
      token: b.token,
      json: { token: link },
    });
    expect(r.status).toBe(403);
    expect(await detail(r)).toMatch(/belongs to another account/);
    // Still good for the account that asked.
    const ok = await app.request('/api/v1/users/me/email/confirm', {
      method: 'POST',
      token: a.token,
      json: { token: link },
    });
    expect(ok.status).toBe(200);
  });

  it('answers 502 when the SMTP server refuses the confirmation mail, and changes nothing', async () => {
    const refusing = await startSmtpServer({ rejectAll: true });
    const s = await createTestApp({ env: { SMTP_URL: refusing.url }, logLevel: 'silent' });
    try {
      const { user, token } = await s.createUser();
      const r = await s.request('/api/v1/users/me/email', {
        method: 'POST',
        token,
        json: { new_email: 'bounced@kforge.test' },
      });
      expect(r.status).toBe(502);
      expect(await detail(r)).toMatch(/mail server/);
      const me = (await (await s.request('/auth/users/me', { token })).json()) as { email: string };
      expect(me.email).toBe(user.email);
    } finally {
      await s.stop();
      await refusing.close();
    }
  });

  it('never lets a change link register or sign in', async () => {
    const a = await magicLinkUser();
    const next = `noreg-${Math.random().toString(36).slice(2, 8)}@kforge.test`;
    await app.request('/api/v1/users/me/email', { method: 'POST', token: a.token, json: { new_email: next } });
    const link = confirmToken((await lastMailTo(app, next)).text);
    const reg = await app.request('/auth/users/register', { method: 'POST', json: { email_verification_token: link } });
    expect(reg.status).toBe(400);
    const ml = await app.request('/auth/login/magic-link', { method: 'POST', json: { token: link } });
    expect(ml.status).toBe(400);
  });
});

describe('DELETE /api/v1/users/me', () => {
  it('asks for the email or "delete", and a password user for the password', async () => {
    const { user, token } = await app.createUser({ password: 'pw-to-delete' });
    const del = (json: unknown) => app.request('/api/v1/users/me', { method: 'DELETE', token, json });
    const typo = await del({ confirm: 'delet', current_password: 'pw-to-delete' });
    expect(typo.status).toBe(422);
    expect(JSON.stringify(await detail(typo))).toContain(`Type your email address (${user.email}) or the word delete`);
    expect((await del({ confirm: 'delete' })).status).toBe(422);
    expect((await del({ confirm: 'delete', current_password: 'wrong-one!' })).status).toBe(400);
    expect((await app.request('/auth/users/me', { token })).status).toBe(200);
  });

  it('deletes the account, its tokens, sessions and submissions at once; its board entries leave the board', async () => {
    const u = await magicLinkUser();
    const created = await app.request('/api/v1/tokens', { method: 'POST', token: u.token, json: { name: 'ci' } });
    const apiToken = ((await created.json()) as { token: string }).token;
    await accepted(u.id);
    await app.ctx.db.query(
      `INSERT INTO agent_sessions (owner_id, problem_name, name, label, device, agent) VALUES ($1, '19_ReLU', 'n', 'l', 'cpu-x86_64', '{}')`,
      [u.id],
    );
    await app.ctx.db.query(
      `INSERT INTO jobs (kind, payload, device, owner_id) VALUES ('evaluate', '{"kind":"submission"}', 'cpu-x86_64', $1)`,
      [u.id],
    );
    const viewer = await app.createUser();
    const boardHas = async () =>
      JSON.stringify(await (await app.request('/api/v1/leaderboard/19_ReLU', { token: viewer.token })).json()).includes(
        u.id,
      );
    expect(await boardHas()).toBe(true);

    const r = await app.request('/api/v1/users/me', { method: 'DELETE', token: u.token, json: { confirm: u.email } });
    expect(r.status).toBe(204);
    expect((await app.request('/auth/users/me', { token: u.token })).status).toBe(401);
    expect((await app.request('/api/v1/tokens', { token: apiToken })).status).toBe(401);
    expect(await boardHas()).toBe(false);
    const count = async (sql: string) => (await app.ctx.db.query<{ n: number }>(sql, [u.id]))[0]?.n;
    expect(await count('SELECT count(*)::int AS n FROM users WHERE id = $1')).toBe(0);
    expect(await count('SELECT count(*)::int AS n FROM submissions WHERE user_id = $1')).toBe(0);
    expect(await count('SELECT count(*)::int AS n FROM agent_sessions WHERE owner_id = $1')).toBe(0);
    expect(await count('SELECT count(*)::int AS n FROM api_tokens WHERE user_id = $1')).toBe(0);
    expect(
      await count("SELECT count(*)::int AS n FROM jobs WHERE owner_id = $1 AND status IN ('queued', 'leased')"),
    ).toBe(0);
    // Nothing the server keeps still holds the address.
    expect((await outbox(app)).some((m) => m.to === u.email)).toBe(false);
    // A new sign-in link for the address makes a new, empty account, not the old one.
    const again = await magicLinkUser(u.email);
    expect(again.id).not.toBe(u.id);
    expect(await boardHas()).toBe(false);
  });

  it('never deletes the last active superuser', async () => {
    const me = await app.request('/auth/users/me', { token: app.admin.token });
    const admin = (await me.json()) as { id: string; email: string };
    const others = await app.ctx.db.query<{ id: string }>('SELECT id FROM users WHERE is_superuser AND id <> $1', [
      admin.id,
    ]);
    expect(others).toEqual([]);
    const r = await app.request('/api/v1/users/me', {
      method: 'DELETE',
      token: app.admin.token,
      json: { confirm: 'delete', current_password: app.admin.password },
    });
    expect(r.status).toBe(409);
    expect(await detail(r)).toMatch(/only active superuser/);
    expect((await app.request('/auth/users/me', { token: app.admin.token })).status).toBe(200);

    // With another superuser, a superuser may go.
    const second = await app.createUser({ is_superuser: true, password: 'second-admin' });
    const ok = await app.request('/api/v1/users/me', {
      method: 'DELETE',
      token: second.token,
      json: { confirm: 'delete', current_password: 'second-admin' },
    });
    expect(ok.status).toBe(204);
  });
});
