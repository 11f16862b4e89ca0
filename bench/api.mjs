// API and memory figures for bench/README.md (DESIGN 10): GET a session with 20 attempts on Postgres at a fixed
// 300 req/s (p50/p99) and at full speed, side by side with a bare Hono route in the same run; then the resident
// memory of an idle server on PGlite and of an idle standalone `kforge-runner`.
// Run: node bench/api.mjs [--rate 300] [--seconds 10] [--rounds 3] [--full-seconds 5] [--settle S] [--api-only] [--profile DIR]
//      node bench/api.mjs --short   (a few seconds per route and short memory settles: everything in about 2 minutes)
// Needs a Postgres install for scripts/postgres.mjs; wrk from Debian for the full-speed figures, else a Node closed
// loop is used. Full speed alternates the routes in rounds (bare, same body, session, then again), so load from
// other work on the machine lands on all of them alike; the figure to quote is the RATIO line, the median of the
// rounds' session / same-body ratios. Prints figures; never fails on timing.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startPostgres } from '../scripts/postgres.mjs';

const root = new URL('..', import.meta.url).pathname;
const { values: args } = parseArgs({
  options: {
    rate: { type: 'string', default: '300' },
    // The fixed-rate part, per route.
    seconds: { type: 'string' },
    // Full speed: this many rounds of every route, each this long.
    rounds: { type: 'string' },
    'full-seconds': { type: 'string' },
    settle: { type: 'string' },
    // A few seconds per route and short memory settles: a smoke run CI can afford; quote the default run's figures.
    short: { type: 'boolean', default: false },
    // Writes a V8 CPU profile of the API server (Postgres part) into this folder, to see where a request's time goes.
    profile: { type: 'string' },
    'api-only': { type: 'boolean', default: false },
  },
});
const SHORT = args.short;
const RATE = Number(args.rate);
const SECONDS = Number(args.seconds ?? (SHORT ? 2 : 10));
const ROUNDS = Number(args.rounds ?? 3);
const FULL_SECONDS = Number(args['full-seconds'] ?? (SHORT ? 2 : 5));
// --settle S: how long each idle process settles before its memory is read (CI's smoke run: 1 s).
const SETTLE_MS = args.settle === undefined ? undefined : Number(args.settle) * 1000;
const SERVER_SETTLE_MS = SETTLE_MS ?? (SHORT ? 3_000 : 15_000);
const RUNNER_SETTLE_MS = SETTLE_MS ?? (SHORT ? 3_000 : 10_000);
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const serverRequire = createRequire(join(root, 'packages/server/package.json'));
const pg = serverRequire('pg');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const ms = (x) => `${x.toFixed(2)} ms`;
const children = [];
const cleanups = [];

function hasWrk() {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
    return true;
  } catch (err) {
    // wrk --version exits 1 but prints its banner; ENOENT means it is missing.
    return err.code !== 'ENOENT';
  }
}

/** Spawns a node process and resolves once its output matches `ready`. */
function startProcess(argv, env, ready, cwd = root, startMs = 90_000) {
  const child = spawn(process.execPath, argv, {
    cwd,
    // Workspace packages from their sources (as the tests run them), so a stale dist/ of the sdk cannot break a run.
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME ?? '/tmp',
      TSX_TSCONFIG_PATH: join(root, 'packages/server/test/helpers/tsconfig.sources.json'),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let log = '';
  return new Promise((resolve, reject) => {
    // Cleared once the process is up or gone: a pending timer kept the script alive 90 s after its last figure.
    const timer = setTimeout(() => reject(new Error(`${argv.join(' ')} did not start:\n${log}`)), startMs);
    const onData = (chunk) => {
      log += chunk.toString();
      const m = ready.exec(log);
      if (m) {
        clearTimeout(timer);
        resolve({ child, match: m, log: () => log });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${argv.join(' ')} exited with ${code}:\n${log}`));
    });
  });
}

async function stopProcess(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const t = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(t);
}

function rssOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
function get(url, headers) {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent, headers }, (res) => {
      let bytes = 0;
      res.on('data', (c) => {
        bytes += c.length;
      });
      res.on('end', () => resolve({ status: res.statusCode, bytes }));
    });
    req.on('error', reject);
  });
}

/**
 * Open loop at a fixed rate: request i is due at start + i/rate, and its latency counts from when it was due,
 * so a stall shows in the percentiles instead of quietly slowing the sender (no coordinated omission).
 */
async function fixedRate(url, headers, rate, seconds) {
  const n = Math.round(rate * seconds);
  const latencies = [];
  let errors = 0;
  const start = performance.now() + 50;
  const pending = [];
  for (let i = 0; i < n; i++) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    // Sent late: count from when it was due; sent a little early (timer granularity): from when it was sent.
    const from = Math.min(due, performance.now());
    pending.push(
      get(url, headers).then(
        (r) => {
          if (r.status !== 200) errors += 1;
          latencies.push(performance.now() - from);
        },
        () => {
          errors += 1;
        },
      ),
    );
  }
  await Promise.all(pending);
  const elapsed = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    sent: n,
    achieved: latencies.length / elapsed,
    errors,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    max: latencies.at(-1),
  };
}

/** Full speed: wrk with a few connections; the figure is requests per second. */
function maxThroughput(url, headers, seconds, connections = 16) {
  const h = Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`]);
  const out = execFileSync('wrk', ['-t1', `-c${connections}`, `-d${seconds}s`, '--latency', ...h, url], {
    encoding: 'utf8',
  });
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]);
  const errors = /Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? '0';
  const p50 = /50%\s+([\d.]+\w+)/.exec(out)?.[1];
  const p99 = /99%\s+([\d.]+\w+)/.exec(out)?.[1];
  return { rps, errors: Number(errors), p50, p99 };
}

async function nodeClosedLoop(url, headers, seconds, connections = 16) {
  let done = 0;
  const until = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < until) {
        await get(url, headers);
        done += 1;
      }
    }),
  );
  return { rps: done / seconds, errors: 0, p50: '-', p99: '-' };
}

const stats = (median) => ({
  mean_ms: median * 1.01,
  median_ms: median,
  min_ms: median * 0.97,
  max_ms: median * 1.2,
  stddev_ms: median * 0.02,
  samples: 30,
});

/** A runner's report as the contract shapes it (fabricated: this is a bench of the read path, not of evaluation). */
function fakeEvaluation(i) {
  const time = 1 + ((i * 37) % 11) / 10;
  const cases = Array.from({ length: 3 }, (_, k) => ({
    name: `case-${k}`,
    sizes: { n: 1 << (20 + k) },
    seed: k + 1,
    distribution: 'uniform',
    passed: true,
    max_abs_error: 0,
    mean_abs_error: 0,
    max_rel_error: 0,
    mean_rel_error: 0,
  }));
  return {
    verdict: 'accepted',
    mode: 'benchmark',
    message: `accepted in ${time.toFixed(3)} ms`,
    compile: {
      ok: true,
      compiler: 'gcc',
      flags: ['-O3', '-march=native', '-fopenmp'],
      log: 'warning: unused variable\n'.repeat(8),
      duration_ms: 420,
    },
    correctness: { passed: true, cases },
    benchmarking_result: {
      optimized_time: time,
      baseline_time: time * 3,
      speedup: 3,
      gbps: 40,
      gflops: 10,
      fraction_of_peak: 0.6,
      cases: cases.map((c) => ({
        name: c.name,
        sizes: c.sizes,
        optimized: stats(time / 3),
        baseline: stats(time),
        speedup: 3,
        gbps: 40,
        gflops: 10,
        fraction_of_peak: 0.6,
        fraction_of_peak_bandwidth: 0.6,
        fraction_of_peak_flops: 0.05,
        inside_ms: time / 3,
        outside_ms: time / 3 + 0.01,
      })),
      flagged_for_review: false,
      review_reasons: [],
    },
    stdout: '',
    runner_seconds: 1.5,
    evaluated_at: new Date().toISOString(),
  };
}

async function seedSession(databaseUrl, ownerId) {
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    const source = `// attempt\n#include <omp.h>\nvoid solution(const float* x, float* y, int n) {\n${'  /* body */\n'.repeat(60)}}\n`;
    const s = await c.query(
      `INSERT INTO agent_sessions (owner_id, problem_name, name, label, device, status, agent)
       VALUES ($1, '19_ReLU', 'bench', 'ReLU', 'cpu-x86_64', 'idle', '{"provider":"tuner"}') RETURNING id`,
      [ownerId],
    );
    const sessionId = s.rows[0].id;
    const ins = await c.query(
      `INSERT INTO user_instructions (session_id, text, name, status, max_attempts)
       VALUES ($1, 'Optimize for speed', 'Optimize for speed', 'completed', 20) RETURNING id`,
      [sessionId],
    );
    for (let i = 1; i <= 20; i++) {
      await c.query(
        `INSERT INTO generation_attempts (session_id, instruction_id, attempt_number, status, language, source,
           explanation, agent_meta, evaluation_state, runner_seconds, finished_at)
         VALUES ($1, $2, $3, 'completed', 'c', $4, $5, $6, $7, 1.5, now())`,
        [
          sessionId,
          ins.rows[0].id,
          i,
          source,
          `Attempt ${i}: tile 64x${16 * i}, unroll 4, OpenMP static; the previous best ran at 1.2 ms.`,
          JSON.stringify({ agent: 'tuner', point_key: `p${i}` }),
          JSON.stringify(fakeEvaluation(i)),
        ],
      );
    }
    return sessionId;
  } finally {
    await c.end();
  }
}

async function apiBench() {
  const postgres = await startPostgres();
  cleanups.push(() => postgres.stop());
  const admin = { email: 'bench@kforge.test', password: `pw-${randomBytes(8).toString('hex')}` };
  const dataDir = mkdtempSync(join(tmpdir(), 'kforge-bench-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  // The listening line is logged at info; nothing is logged per request.
  const server = await startProcess(
    [
      ...(args.profile ? ['--cpu-prof', '--cpu-prof-dir', args.profile] : []),
      '--import',
      'tsx',
      'packages/server/src/main.ts',
    ],
    {
      DATABASE_URL: postgres.url,
      KFORGE_DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: '0',
      KFORGE_LOCAL_RUNNER: '0',
      KFORGE_ADMIN_EMAIL: admin.email,
      KFORGE_ADMIN_PASSWORD: admin.password,
      KFORGE_LOG_LEVEL: 'info',
    },
    /listening on [^:\s]+:(\d+)/,
  );
  const base = `http://127.0.0.1:${server.match[1]}`;

  const login = await fetch(`${base}/auth/login/access-token`, {
    method: 'POST',
    body: new URLSearchParams({ username: admin.email, password: admin.password }),
  });
  const { access_token: token } = await login.json();
  const me = await (await fetch(`${base}/auth/users/me`, { headers: { Authorization: `Bearer ${token}` } })).json();
  const sessionId = await seedSession(postgres.url, me.id);
  const sessionUrl = `${base}/api/v1/agent-session/${sessionId}`;
  const auth = { Authorization: `Bearer ${token}` };
  const first = await (await fetch(sessionUrl, { headers: auth })).json();
  const size = JSON.stringify(first).length;
  if (first.generation_attempts?.length !== 20)
    throw new Error(`seeded session reads back wrong: ${JSON.stringify(first).slice(0, 300)}`);
  console.log(`session ${sessionId}: 20 attempts, ${(size / 1024).toFixed(1)} KB of JSON`);
  const bodyFile = join(dataDir, 'session.json');
  writeFileSync(bodyFile, JSON.stringify(first));
  const bareFile = join(dataDir, 'bare-hono.mjs');
  writeFileSync(
    bareFile,
    `import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
const require = createRequire(${JSON.stringify(join(root, 'packages/server/package.json'))});
const { Hono } = require('hono');
const { serve } = require('@hono/node-server');
const app = new Hono();
app.get('/bare', (c) => c.json({ status: 'ok' }));
// The ceiling for any GET of this session on this stack: the same body, already serialised, no database; as a string
// (the figure tracked since issue 22: Node encodes it on every write) and as bytes encoded once (the strict ceiling).
const same = readFileSync(${JSON.stringify(bodyFile)}, 'utf8');
app.get('/same-body', (c) => c.body(same, 200, { 'Content-Type': 'application/json' }));
const bytes = new Uint8Array(readFileSync(${JSON.stringify(bodyFile)}));
app.get('/same-bytes', (c) => c.body(bytes, 200, { 'Content-Type': 'application/json' }));
const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => console.log('listening on 127.0.0.1:' + info.port));
`,
  );
  const bare = await startProcess([bareFile], {}, /listening on [^:\s]+:(\d+)/);
  const bareUrl = `http://127.0.0.1:${bare.match[1]}/bare`;
  const sameUrl = `http://127.0.0.1:${bare.match[1]}/same-body`;
  const bytesUrl = `http://127.0.0.1:${bare.match[1]}/same-bytes`;

  // Warm both (JIT, pool connections), then measure side by side.
  for (let i = 0; i < 300; i++) await Promise.all([get(sessionUrl, auth), get(bareUrl, {})]);

  console.log(`\nload before: ${load()}  (${cpus().length} cpus)`);
  const fixedBare = await fixedRate(bareUrl, {}, RATE, SECONDS);
  const fixedSession = await fixedRate(sessionUrl, auth, RATE, SECONDS);
  console.log(`fixed ${RATE} req/s for ${SECONDS} s (latency from the due time):`);
  for (const [name, r] of [
    ['bare Hono route', fixedBare],
    ['GET session (20 attempts)', fixedSession],
  ]) {
    console.log(
      `  ${name.padEnd(26)} achieved ${r.achieved.toFixed(0)} req/s, p50 ${ms(r.p50)}, p99 ${ms(r.p99)}, max ${ms(r.max)}, errors ${r.errors}`,
    );
  }
  const wrk = hasWrk();
  const full = wrk ? maxThroughput : nodeClosedLoop;
  const routes = [
    ['bare Hono route', bareUrl, {}],
    ['bare route, same body', sameUrl, {}],
    ['bare route, same bytes', bytesUrl, {}],
    ['GET session (20 attempts)', sessionUrl, auth],
  ];
  const runs = routes.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, [, url, headers]] of routes.entries()) runs[i].push(await full(url, headers, FULL_SECONDS));
  }
  const how = wrk ? `wrk -t1 -c16, ${FULL_SECONDS} s` : `node closed loop, 16 connections, ${FULL_SECONDS} s`;
  console.log(`full speed (${how}; ${ROUNDS} rounds of the routes in turn; median, then each round):`);
  for (const [i, [name]] of routes.entries()) {
    const r = runs[i];
    const p99 = r.map((x) => x.p99).join(' ');
    const errors = r.reduce((n, x) => n + x.errors, 0);
    console.log(
      `  ${name.padEnd(26)} ${median(r.map((x) => x.rps))
        .toFixed(0)
        .padStart(6)} req/s  (${r.map((x) => x.rps.toFixed(0)).join(', ')}; p99 ${p99}; errors ${errors})`,
    );
  }
  const [bareRuns, sameRuns, bytesRuns, sessionRuns] = runs;
  /** The median over the rounds of a / b, each round's pair measured minutes apart at most. */
  const ratioOf = (a, b) => {
    const each = a.map((x, k) => x.rps / b[k].rps);
    return { median: median(each), each: each.map((x) => x.toFixed(2)).join(', ') };
  };
  const vsSame = ratioOf(sessionRuns, sameRuns);
  const vsBytes = ratioOf(sessionRuns, bytesRuns);
  console.log(
    `  same body / bare ${ratioOf(sameRuns, bareRuns).median.toFixed(2)}x, same bytes / bare ${ratioOf(bytesRuns, bareRuns).median.toFixed(2)}x, session / bare ${ratioOf(sessionRuns, bareRuns).median.toFixed(3)}x`,
  );
  const kb = (size / 1024).toFixed(0);
  const verdict = (x) => `DESIGN 10 target >= 0.5x: ${x >= 0.5 ? 'met' : 'NOT met'}`;
  console.log(
    `RATIO GET session / bare route sending the same ${kb} KB body: ${vsSame.median.toFixed(2)}x (median of ${ROUNDS}: ${vsSame.each}); ${verdict(vsSame.median)}`,
  );
  console.log(
    `RATIO GET session / bare route sending the same ${kb} KB as bytes encoded once: ${vsBytes.median.toFixed(2)}x (median of ${ROUNDS}: ${vsBytes.each}); ${verdict(vsBytes.median)}`,
  );
  console.log(`load after: ${load()}`);
  await stopProcess(bare.child);
  await stopProcess(server.child);
}

/**
 * The server as an installed `kforge-server` runs it: one bundled file (workspace packages from their sources, npm
 * dependencies from node_modules), built here with esbuild into node_modules/.cache, since a package dist/ may lag its
 * sources. esbuild is tsup's dependency, not the workspace's (pnpm puts no node_modules/.bin/esbuild at the root), so
 * it is loaded from where tsup finds it.
 */
function bundleServer() {
  const out = join(root, 'packages/server/node_modules/.cache/kforge-bench-dist/main.js');
  const fromTsup = createRequire(createRequire(import.meta.url).resolve('tsup'));
  fromTsup('esbuild').buildSync({
    absWorkingDir: root,
    entryPoints: ['packages/server/src/main.ts'],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: out,
    packages: 'external',
    alias: {
      // Directories: a subpath (@kernelforge/sdk/internal) lands in the folder of the same name.
      '@kernelforge/sdk': './packages/sdk/src',
      '@kernelforge/runner': './packages/runner/src',
    },
    logLevel: 'warning',
  });
  return out;
}

async function idleServer(label, argv, env, settleMs = 15_000) {
  const server = await startProcess(
    argv,
    { HOST: '127.0.0.1', PORT: '0', KFORGE_LOG_LEVEL: 'info', ...env },
    /listening on [^:\s]+:(\d+)/,
  );
  const base = `http://127.0.0.1:${server.match[1]}`;
  await fetch(`${base}/healthz`);
  await sleep(settleMs);
  const m = rssOf(server.child.pid);
  console.log(
    `server idle on PGlite, ${label}, ${settleMs / 1000} s after start: RSS ${m.rss.toFixed(0)} MB (peak ${m.peak.toFixed(0)} MB)`,
  );
  return { server, base };
}

async function memoryBench() {
  const token = randomBytes(16).toString('hex');
  const bundle = bundleServer();
  console.log('');
  // Defaults, as a fresh install runs: PGlite in the data dir, the in-process runner on.
  const dataDir = mkdtempSync(join(tmpdir(), 'kforge-bench-mem-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const env = { KFORGE_DATA_DIR: dataDir, KFORGE_RUNNER_TOKEN: token };
  const first = await idleServer('bundled, first start (new data dir)', [bundle], env, SERVER_SETTLE_MS);
  await stopProcess(first.server.child);
  const again = await idleServer('bundled, restart on the same data', [bundle], env, SERVER_SETTLE_MS);
  await stopProcess(again.server.child);
  const { server, base } = await idleServer(
    'from source via tsx (adds the loader)',
    ['--import', 'tsx', 'packages/server/src/main.ts'],
    env,
    SERVER_SETTLE_MS,
  );

  const workDir = mkdtempSync(join(tmpdir(), 'kforge-bench-runner-'));
  cleanups.push(() => rmSync(workDir, { recursive: true, force: true }));
  for (const [label, argv] of [
    ['dist (the kforge-runner bin)', ['packages/runner/dist/main.js']],
    // --short: the bin only (each start runs the runner's trial job first).
    ...(SHORT ? [] : [['src via tsx', ['--import', 'tsx', 'packages/runner/src/main.ts']]]),
  ]) {
    if (!existsSync(join(root, argv.at(-1)))) {
      console.log(`runner (${label}): ${argv.at(-1)} is not built (pnpm -r build), skipped`);
      continue;
    }
    let runner;
    try {
      runner = await startProcess(
        [...argv, '--server', base, '--token', token, '--work-dir', workDir, '--name', 'bench'],
        { KFORGE_ALLOW_UNSANDBOXED: '1' },
        // Idle is after its start-up trial job (a kernel through its sandbox, before it registers: 13-65 s here).
        /trial job passed/,
        root,
        240_000,
      );
    } catch (err) {
      console.log(`runner (${label}): did not start: ${String(err.message).split('\n').slice(0, 3).join(' ')}`);
      continue;
    }
    await sleep(RUNNER_SETTLE_MS);
    const r = rssOf(runner.child.pid);
    console.log(
      `runner idle (${label}), ${RUNNER_SETTLE_MS / 1000} s after start: RSS ${r.rss.toFixed(0)} MB (peak ${r.peak.toFixed(0)} MB)`,
    );
    await stopProcess(runner.child);
  }
  await stopProcess(server.child);
}

try {
  console.log(`node ${process.version}, ${cpus()[0]?.model ?? '?'} x${cpus().length}, load ${load()}`);
  await apiBench();
  if (!args['api-only']) await memoryBench();
} finally {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  for (const f of cleanups.reverse()) {
    try {
      f();
    } catch {}
  }
}
