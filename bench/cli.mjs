#!/usr/bin/env node
// CLI figures: start-up of `kforge --help` against `node -e 0`, and the end-to-end time of
// `kforge leaderboard --json` against a running server. Prints figures; never fails on timing.
//
//   pnpm --filter @kernelforge/cli build && node bench/cli.mjs [--runs 21]
//   KFORGE_API_URL=... KFORGE_TOKEN=... node bench/cli.mjs      # use a server that is already running
//
// Without KFORGE_API_URL and KFORGE_TOKEN it starts kforge-server from source (tsx, a temp data dir, no
// runner), signs in as the admin it creates, and makes an API token, as a CI job would use.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { seedDataDir, sourceServerArgv } from './server.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'packages/cli/dist/bin.js');
const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 21;

if (!existsSync(bin)) {
  console.error('packages/cli/dist/bin.js is missing: run `pnpm --filter @kernelforge/cli build` first.');
  process.exit(1);
}

function timeOnce(args, env = process.env) {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return ms;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** Interleaved, so both see the same machine load. */
function compare(label, a, b) {
  const ta = [];
  const tb = [];
  timeOnce(a.args, a.env);
  timeOnce(b.args, b.env);
  for (let i = 0; i < RUNS; i++) {
    ta.push(timeOnce(a.args, a.env));
    tb.push(timeOnce(b.args, b.env));
  }
  const ma = median(ta);
  const mb = median(tb);
  console.log(`${label}`);
  console.log(`  ${a.name.padEnd(34)} median ${ma.toFixed(1)} ms (min ${Math.min(...ta).toFixed(1)})`);
  console.log(`  ${b.name.padEnd(34)} median ${mb.toFixed(1)} ms (min ${Math.min(...tb).toFixed(1)})`);
  console.log(`  ratio ${(ma / mb).toFixed(2)}x  (${RUNS} runs each)`);
  return { ma, mb };
}

function freePort() {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function startServer() {
  const dir = mkdtempSync(join(tmpdir(), 'kforge-bench-cli-'));
  const src = (pkg, file = 'index.ts') => join(root, 'packages', pkg, 'src', file);
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'ESNext',
        moduleResolution: 'Bundler',
        paths: {
          '@kernelforge/sdk': [src('sdk')],
          '@kernelforge/sdk/node': [src('sdk', 'node.ts')],
          '@kernelforge/runner': [src('runner')],
        },
      },
    }),
  );
  seedDataDir(join(dir, 'data'));
  const port = await freePort();
  const admin = { email: 'bench@kforge.test', password: 'bench-password-1234' };
  const child = spawn(process.execPath, sourceServerArgv(), {
    cwd: root,
    env: {
      ...process.env,
      TSX_TSCONFIG_PATH: join(dir, 'tsconfig.json'),
      PORT: String(port),
      HOST: '127.0.0.1',
      KFORGE_DATA_DIR: join(dir, 'data'),
      KFORGE_LOCAL_RUNNER: '0',
      KFORGE_ADMIN_EMAIL: admin.email,
      KFORGE_ADMIN_PASSWORD: admin.password,
      KFORGE_LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (i > 600) throw new Error('kforge-server did not start within 60 s');
    const ok = await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const login = await fetch(`${url}/auth/login/access-token`, {
    method: 'POST',
    body: new URLSearchParams({ username: admin.email, password: admin.password }),
  });
  if (!login.ok) throw new Error(`sign-in failed: ${login.status} ${await login.text()}`);
  const { access_token } = await login.json();
  const created = await fetch(`${url}/api/v1/tokens`, {
    method: 'POST',
    headers: { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench' }),
  });
  if (!created.ok) throw new Error(`token creation failed: ${created.status} ${await created.text()}`);
  const { token } = await created.json();
  return {
    url,
    token,
    stop() {
      child.kill('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

console.log(`machine: ${process.platform} ${process.arch}, node ${process.version}`);
compare(
  'kforge --help start-up',
  { name: 'node dist/bin.js --help', args: [bin, '--help'] },
  { name: 'node -e 0', args: ['-e', '0'] },
);

let server;
let url = process.env.KFORGE_API_URL;
let token = process.env.KFORGE_TOKEN;
if (!url || !token) {
  server = await startServer();
  url = server.url;
  token = server.token;
}
try {
  const home = mkdtempSync(join(tmpdir(), 'kforge-bench-home-'));
  const env = { PATH: process.env.PATH, HOME: home, KFORGE_API_URL: url, KFORGE_TOKEN: token };
  // The same GET from a bare Node fetch: what the CLI adds is start-up, the sdk's parsing and the output.
  const fetchScript = `const r = await fetch(${JSON.stringify(`${url}/api/v1/leaderboard?limit=3`)}, { headers: { authorization: 'Bearer ' + process.env.KFORGE_TOKEN } }); await r.text();`;
  compare(
    `kforge leaderboard --json end to end (${url})`,
    { name: 'node dist/bin.js leaderboard --json', args: [bin, 'leaderboard', '--json'], env },
    { name: 'node: one fetch of /api/v1/leaderboard', args: ['--input-type=module', '-e', fetchScript], env },
  );
  rmSync(home, { recursive: true, force: true });
} finally {
  server?.stop();
}
