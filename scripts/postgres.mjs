// Starts a throwaway Postgres server for the test suite's second pass; returns its URL and a stop function.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function findBin() {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  for (const v of versions) if (existsSync(join(root, v, 'bin', 'initdb'))) return join(root, v, 'bin');
  return undefined;
}

function freePort() {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

export async function startPostgres() {
  const bin = findBin();
  if (!bin) throw new Error('no Postgres server found (install the postgresql package, or run scripts/setup.sh)');
  const dir = mkdtempSync(join(tmpdir(), 'kforge-pg-'));
  chmodSync(dir, 0o777);
  const data = join(dir, 'data');
  const port = await freePort();
  // initdb refuses to run as root: run the server as the postgres user then.
  const asRoot = process.getuid?.() === 0;
  const run = (cmd, args) => {
    const res = asRoot
      ? spawnSync('runuser', ['-u', 'postgres', '--', cmd, ...args], { encoding: 'utf8' })
      : spawnSync(cmd, args, { encoding: 'utf8' });
    if (res.status !== 0) throw new Error(`${cmd} failed: ${res.stderr || res.stdout}`);
  };
  run(join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const start = () =>
    run(join(bin, 'pg_ctl'), [
      '-D',
      data,
      '-o',
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=300`,
      '-l',
      join(dir, 'log'),
      '-w',
      'start',
    ]);
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    /** Stops the server as an operator's restart does (`pg_ctl stop -m fast`: clients' connections are ended). */
    down() {
      run(join(bin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop']);
    },
    /** Starts it again on the same port and data (after `down`). */
    up: start,
    stop() {
      try {
        run(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

// `node scripts/postgres.mjs` starts one and prints its URL (for running a single test file by hand).
if (import.meta.url === `file://${process.argv[1]}`) {
  const pg = await startPostgres();
  console.log(pg.url);
  execFileSync('sleep', ['infinity'], { stdio: 'ignore' });
}
