// One process at a time on an embedded data directory: a second server (or `create-user`) on it is refused with a
// message, before it writes anything; a lock left by a process that is gone is taken over.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { openDatabase } from '../../src/db/client.js';
import { LOCK_FILE } from '../../src/db/dir-lock.js';
import { runServerCommand, startServerProcess } from '../helpers/process.js';
import { seedPgliteDataDir } from '../helpers/template.js';

const dirs: string[] = [];
/** A new data directory holding a copy of the migrated template database (the lock is what is tested, not initdb). */
const freshDir = async () => {
  const dir = mkdtempSync(join(tmpdir(), 'kforge-lock-'));
  dirs.push(dir);
  await seedPgliteDataDir(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('the embedded data directory lock', () => {
  test('a second opener in the same process is refused; after close the directory opens again', async () => {
    const dataDir = await freshDir();
    const first = await openDatabase({ databaseUrl: null, dataDir });
    await expect(openDatabase({ databaseUrl: null, dataDir })).rejects.toThrow(
      /another kforge process \(pid \d+\) is using the data directory/,
    );
    await first.close();
    const again = await openDatabase({ databaseUrl: null, dataDir });
    await again.query('SELECT 1');
    await again.close();
  }, 60_000);

  test('a lock whose process is gone, or whose pid now belongs to another process, is taken over', async () => {
    const dataDir = await freshDir();
    await (await openDatabase({ databaseUrl: null, dataDir })).close();
    writeFileSync(join(dataDir, LOCK_FILE), '2147483646 12345\n'); // no such pid
    const a = await openDatabase({ databaseUrl: null, dataDir });
    await a.close();
    writeFileSync(join(dataDir, LOCK_FILE), `${process.ppid} 1\n`); // a live pid, but started at another time
    const b = await openDatabase({ databaseUrl: null, dataDir });
    expect(readFileSync(join(dataDir, LOCK_FILE), 'utf8')).toMatch(new RegExp(`^${process.pid} \\d+`));
    await b.close();
  }, 60_000);

  test("a second kforge-server on a running one's data directory exits 1 saying so; the first keeps serving", async () => {
    const dataDir = await freshDir();
    const env = { KFORGE_DATA_DIR: dataDir, KFORGE_LOCAL_RUNNER: '0' };
    const first = await startServerProcess(env);
    try {
      const second = await runServerCommand([], { ...env, PORT: '0', HOST: '127.0.0.1' });
      expect(second.code).toBe(1);
      expect(second.stderr).toMatch(/another kforge process \(pid \d+\) is using the data directory/);
      expect(second.stderr).not.toMatch(/^\s+at /m); // a message to act on, not a stack trace
      // Its port taken (another data directory): said plainly too.
      const port = new URL(first.url).port;
      const busy = await runServerCommand([], {
        KFORGE_DATA_DIR: await freshDir(),
        KFORGE_LOCAL_RUNNER: '0',
        PORT: port,
        HOST: '127.0.0.1',
      });
      expect(busy.code).toBe(1);
      expect(busy.stderr).toContain(`port ${port} on 127.0.0.1 is already in use`);
      const made = await runServerCommand(
        ['create-user', '--email', 'x@kforge.test', '--password', 'pw-123456789'],
        env,
      );
      expect(made.code).not.toBe(0);
      expect(`${made.stdout}${made.stderr}`).toMatch(/another kforge process/);
      const health = await fetch(`${first.url}/readyz`);
      expect(health.status).toBe(200);
    } finally {
      await first.stop();
    }
    // Stopped cleanly: the lock is gone and the directory opens again.
    const made = await runServerCommand(['create-user', '--email', 'y@kforge.test', '--password', 'pw-123456789'], env);
    expect(made.code, made.stderr).toBe(0);
  }, 120_000);
});
