// Replicas starting together on an empty Postgres database all come up: the migrations serialise on one lock.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createContext } from '../../src/context.js';
import { migrationsDir } from '../../src/db/migrate.js';
import { createLogger } from '../../src/log.js';
import { freshPostgresDatabase } from '../helpers/server.js';

const pgBase = process.env.KFORGE_TEST_DATABASE_URL;
const ROUNDS = 20;
const REPLICAS = 3;

const dataDir = mkdtempSync(join(tmpdir(), 'kforge-replicas-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe.skipIf(!pgBase)('replicas starting together on an empty Postgres database', () => {
  it(`all come up, ${ROUNDS} rounds of ${REPLICAS}, and each migration is applied exactly once`, async () => {
    const files = readdirSync(migrationsDir())
      .filter((f) => /^\d+_.*\.sql$/.test(f))
      .sort();
    const failures: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const db = await freshPostgresDatabase(pgBase as string);
      try {
        const config = loadConfig({
          DATABASE_URL: db.url,
          KFORGE_DATA_DIR: dataDir,
          KFORGE_ADMIN_EMAIL: 'admin@kforge.test',
          KFORGE_ADMIN_PASSWORD: 'replica-admin-pw',
          KFORGE_LOCAL_RUNNER: '0',
        });
        // Each replica opens its own pool, runs the migrations and creates the first superuser: the real start path.
        const starts = await Promise.allSettled(
          Array.from({ length: REPLICAS }, () => createContext(config, { log: createLogger('silent') })),
        );
        const contexts = starts.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
        for (const s of starts)
          if (s.status === 'rejected') failures.push(`round ${round}: ${(s.reason as Error).message}`);
        try {
          if (contexts[0]) {
            const rows = await contexts[0].db.query<{ name: string }>(
              'SELECT name FROM schema_migrations ORDER BY name',
            );
            expect(rows.map((r) => r.name)).toEqual(files);
            const admins = await contexts[0].db.query<{ n: number }>(
              'SELECT count(*)::int AS n FROM users WHERE is_superuser',
            );
            expect(admins[0]?.n).toBe(1);
          }
        } finally {
          for (const ctx of contexts) await ctx.close();
        }
      } finally {
        await db.drop();
      }
    }
    expect(failures).toEqual([]);
  }, 300_000);
});
