// First start, restarts on the same data, create-user, and the web app served at / with its client-route fallback.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createUserCommand } from '../../src/subcommands/create-user.js';
import { loadConfig } from '../../src/config.js';
import { captureLog } from '../helpers/log.js';
import { tokenFromLink } from '../helpers/mail.js';
import { freshPostgresDatabase, startTestServer } from '../helpers/server.js';
import { seedPgliteDataDir } from '../helpers/template.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

const pgBase = process.env.KFORGE_TEST_DATABASE_URL;

/** A data dir (and, on Postgres, a database) that outlives one server, for restart tests. */
async function persistentStore(): Promise<{ dataDir: string; databaseUrl?: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'kforge-restart-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  // A copy of the migrated template (helpers/template.ts), as every test server starts on: what these tests keep
  // across a restart is their own data, not the first migration (backup.test runs that one).
  if (!pgBase) {
    await seedPgliteDataDir(dataDir);
    return { dataDir };
  }
  const db = await freshPostgresDatabase(pgBase);
  cleanups.push(() => db.drop());
  return { dataDir, databaseUrl: db.url };
}

describe('restart', () => {
  it('keeps users, API tokens, the signing secret and the outbox across a restart', async () => {
    const store = await persistentStore();
    const first = await startTestServer({ ...store, keepData: true });
    const { user, token: jwt } = await first.createUser({ email: 'stays@kforge.test', password: 'persisted-pw' });
    const apiToken = (
      (await (
        await first.request('/api/v1/tokens', { method: 'POST', token: jwt, json: { name: 'keep' } })
      ).json()) as { token: string }
    ).token;
    await first.request('/auth/magic-link', { method: 'POST', json: { email: 'stays@kforge.test' } });
    await first.stop();

    const second = await startTestServer({ ...store });
    try {
      // The JWT from before the restart still verifies: the secret was kept in the data dir.
      const me = await second.request('/auth/users/me', { token: jwt });
      expect(me.status).toBe(200);
      expect(((await me.json()) as { id: string }).id).toBe(user.id);
      expect((await second.request('/auth/users/me', { token: apiToken })).status).toBe(200);
      const login = await second.request('/auth/login/access-token', {
        method: 'POST',
        body: new URLSearchParams({ username: 'stays@kforge.test', password: 'persisted-pw' }),
      });
      expect(login.status).toBe(200);
      const mails = (await (await second.request('/api/v1/admin/outbox', { token: second.admin.token })).json()) as {
        count: number;
      };
      expect(mails.count).toBe(1);
      const migrations = await second.ctx.db.query<{ name: string }>(
        'SELECT name FROM schema_migrations ORDER BY name',
      );
      expect(migrations[0]?.name).toBe('0001_auth.sql');
    } finally {
      await second.stop();
    }
  });
});

describe('first start', () => {
  it('without KFORGE_ADMIN_* prints a one-time sign-in link that signs in a superuser', async () => {
    const captured = captureLog();
    const server = await startTestServer({
      env: { KFORGE_ADMIN_EMAIL: '', KFORGE_ADMIN_PASSWORD: '' },
      log: captured.log,
    });
    try {
      const text = captured.text();
      expect(text).toContain('one-time sign-in link');
      const token = tokenFromLink(text, 'magic-link-login');
      const login = await server.request('/auth/login/magic-link', { method: 'POST', json: { token } });
      expect(login.status).toBe(200);
      const { access_token } = (await login.json()) as { access_token: string };
      const me = (await (await server.request('/auth/users/me', { token: access_token })).json()) as {
        email: string;
        is_superuser: boolean;
      };
      expect(me).toEqual(expect.objectContaining({ email: 'admin@localhost', is_superuser: true }));
      expect((await server.request('/auth/login/magic-link', { method: 'POST', json: { token } })).status).toBe(400);
    } finally {
      await server.stop();
    }
  });

  it('with KFORGE_ADMIN_EMAIL/PASSWORD creates that superuser and prints no link', async () => {
    const captured = captureLog();
    const server = await startTestServer({ log: captured.log });
    try {
      expect(captured.text()).toContain('created the first superuser admin@kforge.test');
      expect(captured.text()).not.toContain('magic-link-login');
    } finally {
      await server.stop();
    }
  });
});

describe('kforge-server create-user', () => {
  it('adds a superuser who can then sign in with the password', async () => {
    const store = await persistentStore();
    const config = loadConfig({
      KFORGE_DATA_DIR: store.dataDir,
      KFORGE_LOG_LEVEL: 'warn',
      ...(store.databaseUrl ? { DATABASE_URL: store.databaseUrl } : {}),
    });
    const lines: string[] = [];
    const code = await createUserCommand(
      ['--email', 'Ops@Kforge.test', '--password', 'ops-password', '--superuser'],
      config,
      (l) => lines.push(l),
    );
    expect(code).toBe(0);
    expect(lines.join('\n')).toContain('created ops@kforge.test (superuser)');
    expect(
      await createUserCommand(['--email', 'ops@kforge.test', '--password', 'ops-password'], config, (l) =>
        lines.push(l),
      ),
    ).toBe(1);
    expect(await createUserCommand(['--email', 'ops@kforge.test'], config, (l) => lines.push(l))).toBe(2);

    const server = await startTestServer({ ...store });
    try {
      const login = await server.request('/auth/login/access-token', {
        method: 'POST',
        body: new URLSearchParams({ username: 'ops@kforge.test', password: 'ops-password' }),
      });
      expect(login.status).toBe(200);
      const { access_token } = (await login.json()) as { access_token: string };
      expect((await server.request('/api/v1/users', { token: access_token })).status).toBe(200);
    } finally {
      await server.stop();
    }
  });
});

describe('the web app at /', () => {
  it('says how to build the web app when the dist folder is missing', async () => {
    const server = await startTestServer({ env: { KFORGE_WEB_DIST: join(tmpdir(), 'kforge-no-such-dist') } });
    try {
      const r = await server.request('/');
      expect(r.status).toBe(200);
      expect(await r.text()).toContain('web app is not built');
    } finally {
      await server.stop();
    }
  });

  it('serves files, falls back to index.html for client routes, and never for /api or /auth', async () => {
    const dist = mkdtempSync(join(tmpdir(), 'kforge-dist-'));
    cleanups.push(() => rmSync(dist, { recursive: true, force: true }));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><div id="root">kforge-index</div>');
    writeFileSync(join(dist, 'assets', 'app-123.js'), 'console.log("app")');
    const server = await startTestServer({ env: { KFORGE_WEB_DIST: dist } });
    try {
      const index = await server.request('/');
      expect(await index.text()).toContain('kforge-index');
      const asset = await server.request('/assets/app-123.js');
      expect(asset.headers.get('content-type')).toContain('text/javascript');
      expect(asset.headers.get('cache-control')).toContain('immutable');
      expect(await asset.text()).toContain('console.log');
      for (const route of [
        '/kernels/generate-kernel',
        '/leaderboard/19_ReLU',
        '/verify-email?token=abc',
        '/no/such/page',
      ]) {
        const r = await server.request(route);
        expect(r.status, route).toBe(200);
        expect(await r.text()).toContain('kforge-index');
      }
      expect((await server.request('/assets/missing.js')).status).toBe(404);
      expect((await server.request('/../../etc/passwd')).status).toBe(200);
      expect(await (await server.request('/%2e%2e/%2e%2e/etc/passwd')).text()).not.toContain('root:');
      const api = await server.request('/api/v1/nothing-here');
      expect(api.status).toBe(404);
      expect(await api.json()).toEqual({ detail: 'Not Found' });
      expect((await server.request('/auth/users/me')).status).toBe(401);
    } finally {
      await server.stop();
    }
  });
});
