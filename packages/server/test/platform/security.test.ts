// The attacker's view, through the real app on a real database: lockouts, enumeration, cross-site bodies, headers,
// token scopes and issue times, event tickets and stream caps (over a socket), metrics, the error log, private files.
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signAccessToken } from '../../src/auth/access-token.js';
import { loadConfig, StartupError } from '../../src/config.js';
import { openDatabase } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import { ensurePrivateDir } from '../../src/db/private-dir.js';
import { captureLog } from '../helpers/log.js';
import { lastMailTo, outbox, tokenFromLink } from '../helpers/mail.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import type { TestServer } from '../helpers/server.js';
import { CPU, json, RUNNER_TOKEN, registerRunner, startProductServer } from '../product/helpers.js';

const form = (username: string, password: string) => new URLSearchParams({ username, password });

describe('sign-in throttling cannot lock the owner out', () => {
  let app: TestApp;
  const email = 'owner@kforge.test';
  const password = 'the-owners-password';
  beforeAll(async () => {
    app = await createTestApp({ env: { KFORGE_TRUST_PROXY: '1', KFORGE_SIGNIN_PER_MINUTE: '3' } });
    await app.createUser({ email, password });
  });
  afterAll(() => app?.stop());

  const login = (from: string, pw: string, user = email) =>
    app.request('/auth/login/access-token', {
      method: 'POST',
      headers: { 'X-Forwarded-For': from },
      body: form(user, pw),
    });

  it('stops one address guessing, while the owner at another address signs in', async () => {
    const answers: number[] = [];
    for (let i = 0; i < 6; i++) answers.push((await login('203.0.113.66', `guess-${i}`)).status);
    expect(answers).toEqual([400, 400, 400, 429, 429, 429]);
    const owner = await login('198.51.100.7', password);
    expect(owner.status).toBe(200);
    expect(((await owner.json()) as { access_token: string }).access_token).toBeTruthy();
  });

  it('slows many addresses guessing one account, and the owner still signs in from a new address', async () => {
    const victim = 'victim@kforge.test';
    await app.createUser({ email: victim, password });
    // 5x the setting (15) failures in a minute from 15 addresses put the account under attack...
    for (let i = 0; i < 16; i++) expect((await login(`192.0.2.${i + 1}`, `guess-${i}`, victim)).status).toBe(400);
    // ... and the owner, at an address never seen, still gets in (after waiting their turn).
    expect((await login('198.51.100.99', password, victim)).status).toBe(200);
    // Guesses keep failing as guesses, never turning into a lockout of the account.
    expect((await login('192.0.2.200', 'another-guess', victim)).status).toBe(400);
    expect((await login('198.51.100.99', password, victim)).status).toBe(200);
  });
});

describe('mail throttling cannot keep the owner from a sign-in link', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ env: { KFORGE_TRUST_PROXY: '1', KFORGE_MAIL_PER_HOUR: '3' } });
  });
  afterAll(() => app?.stop());

  const ask = (from: string, email: string) =>
    app.request('/auth/magic-link', {
      method: 'POST',
      headers: { 'X-Forwarded-For': from, 'content-type': 'application/json' },
      body: JSON.stringify({ email }),
    });

  it('refuses the flooding address, bounds the mails, and the owner signs in with the newest link', async () => {
    const email = 'mailbox@kforge.test';
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await ask('203.0.113.5', email)).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    // The owner's own request is answered as always, from another address...
    expect((await ask('198.51.100.8', email)).status).toBe(200);
    // ... the recipient got no more than the hour's budget...
    const mails = (await outbox(app)).filter((m) => m.to === email);
    expect(mails.length).toBe(3);
    // ... and the newest of them (unusable by the flooder, who never sees it) signs the owner in.
    const token = tokenFromLink((await lastMailTo(app, email)).text, 'magic-link-login');
    const signedIn = await app.request('/auth/login/magic-link', { method: 'POST', json: { token } });
    expect(signedIn.status).toBe(200);
  });
});

describe('the data directory and the runner folder are private', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kforge-private-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const walk = (d: string): string[] =>
    readdirSync(d).flatMap((name) => {
      const p = join(d, name);
      const st = lstatSync(p);
      return st.isDirectory() ? [p, ...walk(p)] : [p];
    });

  it('has no file or folder under the data directory that others can read or write', async () => {
    // A file left world-writable by an older version is made private too.
    writeFileSync(join(dir, 'left-over'), 'x', { mode: 0o666 });
    const config = loadConfig({ KFORGE_DATA_DIR: dir });
    const db = await openDatabase({ databaseUrl: null, dataDir: config.dataDir });
    try {
      await migrate(db);
      await db.exec("CREATE TABLE IF NOT EXISTS perm_probe (x text); INSERT INTO perm_probe VALUES ('y')");
    } finally {
      await db.close();
    }
    const entries = [dir, ...walk(dir)];
    expect(entries.length).toBeGreaterThan(100);
    const open = entries.filter((p) => (lstatSync(p).mode & 0o077) !== 0);
    expect(open).toEqual([]);
    // A real initdb (the modes it leaves are what is checked), then every migration: ~4 s on a quiet 2-core machine,
    // past 60 s beside the rest of the suite at load 8.
  }, 180_000);

  it("makes the runner's folder its own (0700; 0711 as root, for the sandbox user), and refuses a planted link", () => {
    const work = join(dir, 'runner-work');
    mkdirSync(work, { mode: 0o777 });
    ensurePrivateDir(work);
    expect(lstatSync(work).mode & 0o777).toBe(process.getuid?.() === 0 ? 0o711 : 0o700);
    expect(lstatSync(work).mode & 0o066).toBe(0);
    const target = join(dir, 'elsewhere');
    mkdirSync(target);
    const planted = join(dir, 'planted');
    symlinkSync(target, planted);
    expect(() => ensurePrivateDir(planted)).toThrow(StartupError);
  });
});

describe('HTTP defaults', () => {
  let app: TestApp;
  let runnerServer: TestServer;
  beforeAll(async () => {
    app = await createTestApp({ env: { KFORGE_SSE_STREAMS_PER_USER: '2' } });
  });
  afterAll(async () => {
    await app?.stop();
    await runnerServer?.stop();
  });

  it('refuses text/plain (and other non-JSON types) on JSON routes with 415, and keeps the form login', async () => {
    for (const path of ['/auth/magic-link', '/auth/users/register/email-verification-token']) {
      const r = await app.request(path, {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: JSON.stringify({ email: 'csrf@kforge.test' }),
      });
      expect(r.status).toBe(415);
      expect(((await r.json()) as { detail: string }).detail).toMatch(/application\/json/);
    }
    const tokens = await app.request('/api/v1/tokens', {
      method: 'POST',
      token: app.admin.token,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'name=x',
    });
    expect(tokens.status).toBe(415);
    expect(await outbox(app)).toEqual([]);
    const login = await app.request('/auth/login/access-token', {
      method: 'POST',
      body: form(app.admin.email, app.admin.password),
    });
    expect(login.status).toBe(200);
  });

  it('answers a bad %-escape in the path with 400 and a detail', async () => {
    const r = await app.request('/%E0%A4%A');
    expect(r.status).toBe(400);
    expect(((await r.json()) as { detail: string }).detail).toMatch(/%-escape/);
  });

  it('sends the security headers, with a CSP that allows the inline theme script by its hash', async () => {
    const api = await app.request('/api/v1/settings');
    expect(api.headers.get('x-content-type-options')).toBe('nosniff');
    expect(api.headers.get('x-frame-options')).toBe('DENY');
    expect(api.headers.get('referrer-policy')).toBe('no-referrer');
    expect(api.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
    const page = await app.request('/kernels/generate-kernel');
    expect(page.headers.get('content-type')).toContain('text/html');
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain("'unsafe-eval'");
    const html = await page.text();
    const inline = /<script>([\s\S]*?)<\/script>/.exec(html)?.[1];
    if (inline !== undefined) expect(csp).toContain(`'sha256-${createHash('sha256').update(inline).digest('base64')}'`);
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('refuses access tokens issued in the future beyond a small skew', async () => {
    const id = (await app.createUser()).user.id;
    const now = Date.now();
    const future = await signAccessToken(app.ctx.config.secret, id, {
      expiresInSeconds: 3600,
      now: now + 3_600_000,
    });
    expect((await app.request('/auth/users/me', { token: future })).status).toBe(401);
    const skewed = await signAccessToken(app.ctx.config.secret, id, { expiresInSeconds: 3600, now: now + 20_000 });
    expect((await app.request('/auth/users/me', { token: skewed })).status).toBe(200);
  });

  it('gives tokens scopes: a CI token submits and reads but cannot manage tokens', async () => {
    const owner = await app.createUser();
    const ci = await json<{ token: string; scopes: string[] }>(
      app.request('/api/v1/tokens', {
        method: 'POST',
        token: owner.token,
        json: { name: 'ci', scopes: ['read', 'submit'] },
      }),
    );
    expect(ci.status).toBe(201);
    expect(ci.body.scopes).toEqual(['read', 'submit']);
    const mint = await app.request('/api/v1/tokens', {
      method: 'POST',
      token: ci.body.token,
      json: { name: 'more' },
    });
    expect(mint.status).toBe(403);
    expect(((await mint.json()) as { detail: string }).detail).toMatch(/'tokens' scope/);
    expect((await app.request('/api/v1/tokens', { token: ci.body.token })).status).toBe(403);
    expect((await app.request('/auth/users/me', { token: ci.body.token })).status).toBe(200);
    expect((await app.request('/api/v1/problems', { token: ci.body.token })).status).toBe(200);
    // Submitting is allowed (no runner here: the device is unknown, a 4xx that is not about scopes).
    const submit = await app.request('/api/v1/submission', {
      method: 'POST',
      token: ci.body.token,
      json: { problem_name: '19_ReLU', device: 'cpu-x86_64', language: 'c', source: 'void solution(){}' },
    });
    expect(submit.status).not.toBe(403);
    expect(submit.status).not.toBe(401);
    // Starting sessions is not in the CI scope.
    const session = await app.request('/api/v1/agent-session', {
      method: 'POST',
      token: ci.body.token,
      json: { problem_name: '19_ReLU', device: 'cpu-x86_64' },
    });
    expect(session.status).toBe(403);
    // A token with the tokens scope cannot mint one with more than its own scopes.
    const narrow = await json<{ token: string }>(
      app.request('/api/v1/tokens', {
        method: 'POST',
        token: owner.token,
        json: { name: 'n', scopes: ['read', 'tokens'] },
      }),
    );
    const wider = await app.request('/api/v1/tokens', {
      method: 'POST',
      token: narrow.body.token,
      json: { name: 'w', scopes: ['read', 'submit'] },
    });
    expect(wider.status).toBe(403);
  });

  it('needs the metrics token for /metrics', async () => {
    expect((await app.request('/metrics')).status).toBe(401);
    expect((await app.request('/metrics', { token: app.admin.token })).status).toBe(401);
    expect((await app.request('/metrics', { token: app.metricsToken })).status).toBe(200);
    const off = await createTestApp({ env: { KFORGE_METRICS_TOKEN: '' } });
    try {
      const r = await off.request('/metrics', { token: 'anything' });
      expect(r.status).toBe(404);
      expect(((await r.json()) as { detail: string }).detail).toMatch(/KFORGE_METRICS_TOKEN/);
    } finally {
      await off.stop();
    }
  });

  // Event streams are opened and closed over a real socket: the cap counts connections the client drops.
  it('opens event streams with single-use tickets (never a token in the URL) and caps streams per user', async () => {
    runnerServer = await startProductServer({ background: false, env: { KFORGE_SSE_STREAMS_PER_USER: '2' } });
    await registerRunner(runnerServer, [CPU]);
    const user = await runnerServer.createUser();
    const other = await runnerServer.createUser();
    const s = await json<{ id: string }>(
      runnerServer.request('/api/v1/agent-session', {
        method: 'POST',
        token: user.token,
        json: { problem_name: '19_ReLU', device: CPU.id },
      }),
    );
    const ticketFor = async (token: string) =>
      runnerServer.request(`/api/v1/agent-session/${s.body.id}/events/ticket`, { method: 'POST', token });
    expect((await ticketFor(other.token)).status).toBe(404);
    const { ticket } = (await (await ticketFor(user.token)).json()) as { ticket: string };
    const events = (q: string, signal?: AbortSignal) =>
      fetch(`${runnerServer.url}/api/v1/agent-session/${s.body.id}/events?${q}`, signal ? { signal } : {});
    const streams = [new AbortController(), new AbortController(), new AbortController()] as const;
    const first = await events(`ticket=${ticket}`, streams[0].signal);
    expect(first.status).toBe(200);
    // Spent: the same URL, replayed from a proxy log, opens nothing.
    const replay = await events(`ticket=${ticket}`);
    expect(replay.status).toBe(401);
    expect(((await replay.json()) as { detail: string }).detail).toMatch(/ticket/);
    // The bearer token is not taken from the URL any more.
    expect((await events(`access_token=${user.token}`)).status).toBe(401);
    const second = await runnerServer.request(`/api/v1/agent-session/${s.body.id}/events`, {
      token: user.token,
      signal: streams[1].signal,
    });
    expect(second.status).toBe(200);
    const third = await runnerServer.request(`/api/v1/agent-session/${s.body.id}/events`, { token: user.token });
    expect(third.status).toBe(429);
    expect(((await third.json()) as { detail: string }).detail).toMatch(/Too many open event streams/);
    // Closing one frees its place.
    streams[0].abort();
    let reopened = 0;
    for (let i = 0; i < 50 && reopened !== 200; i++) {
      await new Promise((r) => setTimeout(r, 100));
      const r = await runnerServer.request(`/api/v1/agent-session/${s.body.id}/events`, {
        token: user.token,
        signal: streams[2].signal,
      });
      reopened = r.status;
      if (r.status !== 200) await r.text();
    }
    expect(reopened).toBe(200);
    for (const c of streams) c.abort();
  });

  it('stores a runner report whose text holds NUL bytes (candidate output) instead of failing', async () => {
    const user = await runnerServer.createUser();
    const runnerId = await registerRunner(runnerServer, [CPU], 'nul-runner');
    const sub = await runnerServer.request('/api/v1/submission', {
      method: 'POST',
      token: user.token,
      json: { problem_name: '19_ReLU', device: CPU.id, language: 'c', source: 'void solution(){}' },
    });
    expect(sub.status).toBe(201);
    const claim = await json<{ job: { job_id: string; lease_token: string } | null }>(
      runnerServer.request('/api/v1/runner/claim', {
        method: 'POST',
        token: RUNNER_TOKEN,
        json: { runner_id: runnerId, devices: [CPU.id] },
      }),
    );
    const job = claim.body.job;
    expect(job).not.toBeNull();
    const result = await runnerServer.request(`/api/v1/runner/jobs/${job?.job_id}/result`, {
      method: 'POST',
      token: RUNNER_TOKEN,
      json: { runner_id: runnerId, lease_token: job?.lease_token, error: 'compiler said \u0000 and died' },
    });
    expect(result.status).toBe(200);
  });
});

describe('the error log cannot be flooded', () => {
  it('writes one stack for many identical failures', async () => {
    const captured = captureLog();
    const app = await createTestApp({ log: captured.log });
    const { token } = await app.createUser();
    // The database going away makes every authenticated request fail with a 500.
    await app.ctx.db.close();
    try {
      for (let i = 0; i < 40; i++) {
        const r = await app.request('/api/v1/tokens', { token });
        expect(r.status).toBe(500);
        expect(await r.json()).toEqual({ detail: 'Internal Server Error' });
      }
      const stacks = captured.lines.filter((l) => l.includes('unhandled error'));
      expect(stacks.length).toBe(1);
      expect(captured.text().length).toBeLessThan(20_000);
    } finally {
      await app.stop().catch(() => {});
    }
  });
});
