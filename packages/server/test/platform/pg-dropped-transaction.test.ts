// A Postgres connection ended while a transaction holds it between two statements (a restart, an operator's
// pg_terminate_backend): the transaction fails with a connection error, the process stays up, and the next query
// is answered on a fresh connection. A checked-out pg client has no 'error' listener of the pool's, so before the
// fix its 'error' event had no one to hear it and ended the server (postgres-restart.test's "fetch failed" in CI).
import { afterAll, describe, expect, it } from 'vitest';
import { startPostgres, type ThrowawayPostgres } from '../../../../scripts/postgres.mjs';
import { isConnectionError, openDatabase } from '../../src/db/client.js';
import { waitFor } from '../product/helpers.js';

// Runs in the Postgres pass (scripts/test-passes.mjs), on a server of its own, as postgres-restart.test does.
const pgPass = process.env.KFORGE_TEST_DATABASE_URL;

const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

describe.skipIf(!pgPass)('a connection ended in the middle of a transaction', () => {
  it('fails that transaction with a connection error, keeps the process up, and the next query is answered', async () => {
    const postgres: ThrowawayPostgres = await startPostgres();
    cleanups.push(() => postgres.stop());
    const db = await openDatabase({ databaseUrl: postgres.url, dataDir: '/nonexistent' });
    cleanups.push(() => db.close());
    // What would have ended the process: vitest fails the run on it too, this says which.
    const uncaught: unknown[] = [];
    const onUncaught = (err: unknown) => uncaught.push(err);
    process.on('uncaughtException', onUncaught);
    cleanups.push(() => {
      process.off('uncaughtException', onUncaught);
    });

    let pid = 0;
    let release = () => {};
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const tx = db.transaction(async (t) => {
      pid = (await t.query<{ pid: number }>('SELECT pg_backend_pid() AS pid'))[0]?.pid ?? -1;
      await gate;
      await t.query('SELECT 1');
    });
    const failed = tx.then(
      () => null,
      (err: unknown) => err,
    );
    await waitFor(async () => pid !== 0, { timeoutMs: 10_000, what: 'the transaction to start' });
    // The server ends that backend as `pg_ctl stop -m fast` does (FATAL 57P01, admin_shutdown).
    expect(await db.query('SELECT pg_terminate_backend($1) AS ended', [pid])).toEqual([{ ended: true }]);
    // The FATAL reaches the held client while the transaction is between statements.
    await new Promise((r) => setTimeout(r, 500));
    release();
    const err = await failed;
    expect(err, 'the transaction went on as if nothing had happened').not.toBeNull();
    expect(isConnectionError(err), String(err)).toBe(true);
    expect(uncaught.map(String)).toEqual([]);
    // The broken client went back to the pool as broken: nothing later is handed a dead connection.
    for (let i = 0; i < 12; i++) expect(await db.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    expect(await db.transaction((t) => t.query('SELECT 2 AS two'))).toEqual([{ two: 2 }]);
  });
});
