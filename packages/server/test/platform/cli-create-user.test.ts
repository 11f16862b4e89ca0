// `kforge-server create-user` as a real process: the user it adds can sign in, as a superuser when asked.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { runServerCommand } from '../helpers/process.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { migratedPostgresDatabase, seedPgliteDataDir } from '../helpers/template.js';

const dataDir = mkdtempSync(join(tmpdir(), 'kforge-cli-'));
let server: TestServer | null = null;
let drop: (() => Promise<void>) | null = null;

afterAll(async () => {
  await server?.stop();
  await drop?.();
  rmSync(dataDir, { recursive: true, force: true });
});

// Three commands run as server processes from source (tsx compiles the server each time): minutes on a loaded machine.
test('kforge-server create-user --superuser adds a user who can then sign in as a superuser', async () => {
  // The same database either way: PGlite in the data dir, or a new Postgres database on the second pass; both
  // copied from the migrated template, so the commands below do not each wait on initdb and the migrations.
  let databaseUrl: string | null = null;
  if (process.env.KFORGE_TEST_DATABASE_URL) {
    const fresh = await migratedPostgresDatabase(process.env.KFORGE_TEST_DATABASE_URL);
    databaseUrl = fresh.url;
    drop = fresh.drop;
  } else await seedPgliteDataDir(dataDir);
  const env = { KFORGE_DATA_DIR: dataDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) };
  const email = `Ops-${randomBytes(3).toString('hex')}@Kforge.test`;
  const password = `pw-${randomBytes(9).toString('base64url')}`;

  const made = await runServerCommand(['create-user', '--email', email, '--password', password, '--superuser'], env);
  expect(made.code, made.stderr).toBe(0);
  expect(made.stdout).toContain(`created ${email.toLowerCase()} (superuser)`);

  const again = await runServerCommand(['create-user', '--email', email, '--password', password], env);
  expect(again.code).toBe(1);
  expect(again.stdout).toContain('already exists');
  const bad = await runServerCommand(['create-user', '--email', 'nobody', '--password', 'short'], env);
  expect(bad.code).toBe(2);
  expect(bad.stdout).toContain('usage: kforge-server create-user');

  server = await startTestServer({ dataDir, ...(databaseUrl ? { databaseUrl } : {}), background: false });
  const login = await server.request('/auth/login/access-token', {
    method: 'POST',
    body: new URLSearchParams({ username: email, password }),
  });
  expect(login.status).toBe(200);
  const { access_token } = (await login.json()) as { access_token: string };
  const me = await server.request('/auth/users/me', { token: access_token });
  expect(await me.json()).toMatchObject({ email: email.toLowerCase(), is_superuser: true });
  const wrong = await server.request('/auth/login/access-token', {
    method: 'POST',
    body: new URLSearchParams({ username: email, password: 'not-the-password' }),
  });
  expect(wrong.status).toBe(400);
}, 240_000);
