// Issue 34: a client polling a live session over one keep-alive connection, counting the connections the server
// drops under it (ECONNRESET and other socket errors). The server runs from source with its in-process cpu runner;
// tuner sessions on one problem run back to back so the session polled is always live (the runner evaluating beside
// the requests). Requests go through undici (the CLI's fetch, one connection at most) with no retry, so every drop
// counts. Also prints the server's event-loop stalls over 1 s, seen as late answers (the longest is what a
// keep-alive timer must outlast).
// Usage: node_modules/.bin/tsx bench/keepalive.mjs [seconds=300] [--interval-ms 250] [--problem 19_ReLU] [--short]
//        --short: 8 seconds (the smoke run in tests/bench/bench-scripts.test.ts). Prints figures; never fails on them.
import { createRequire } from 'node:module';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createClient } from '../packages/sdk/src/index.ts';
import { root, startBenchServer, sourceServerArgv } from './server.mjs';

const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    'interval-ms': { type: 'string', default: '250' },
    problem: { type: 'string', default: '19_ReLU' },
    short: { type: 'boolean', default: false },
  },
});
const seconds = Number(positionals[0] ?? (args.short ? 8 : 300));
const intervalMs = Number(args['interval-ms']);
const undici = createRequire(join(root, 'packages/cli/package.json'))('undici');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

console.log(
  `machine: ${cpus()[0]?.model ?? '?'}, ${cpus().length} cpus, Node ${process.version}, load ${load()}; ` +
    `${args.problem} sessions, a GET every ${intervalMs} ms for ${seconds} s over one keep-alive connection, no retries`,
);
// The product's timing rules unless the caller chose: quick ones keep attempts (and so evaluations) coming.
const server = await startBenchServer({
  createClient,
  argv: sourceServerArgv(),
  env: {
    TSX_TSCONFIG_PATH: join(root, 'packages/server/test/helpers/tsconfig.sources.json'),
    KFORGE_RUNNER_TIMING: process.env.KFORGE_RUNNER_TIMING ?? 'quick',
  },
});
const dispatcher = new undici.Agent({ connections: 1 });
let opened = 0;
const drops = [];
let polling = true;
dispatcher.on('connect', () => opened++);
// Our own close at the end is not a drop.
dispatcher.on('disconnect', (_origin, _targets, error) => {
  if (polling) drops.push(error?.code ?? error?.message ?? 'closed');
});
const counts = { requests: 0, ok: 0, resets: 0, otherErrors: 0, sessions: 0, attempts: 0 };
const errors = [];
const stalls = [];
try {
  const token = await server.client.tokenStore.get();
  const { data: devices } = await server.client.devices.list();
  const cpu = devices.find((d) => d.kind === 'cpu');
  const startSession = async () => {
    counts.sessions++;
    return (await server.client.sessions.create({ problem_name: args.problem, device: cpu.id, max_attempts: 20 })).id;
  };
  let id = await startSession();
  let attemptsNow = 0;
  const started = Date.now();
  while (Date.now() - started < seconds * 1000) {
    const sent = Date.now();
    counts.requests++;
    try {
      const res = await undici.fetch(`${server.baseUrl}/api/v1/agent-session/${id}`, {
        headers: { authorization: `Bearer ${token}` },
        dispatcher,
      });
      const body = await res.json();
      counts.ok++;
      const took = Date.now() - sent;
      if (took > 1000) stalls.push(took);
      attemptsNow = body.generation_attempts?.length ?? 0;
      if (body.status !== 'active') {
        counts.attempts += attemptsNow;
        attemptsNow = 0;
        id = await startSession();
      }
    } catch (error) {
      const code = error.cause?.code ?? error.cause?.message ?? error.message;
      if (code === 'ECONNRESET') counts.resets++;
      else counts.otherErrors++;
      errors.push(`${((sent - started) / 1000).toFixed(1)} s: ${code}`);
    }
    await sleep(intervalMs);
  }
  counts.attempts += attemptsNow;
} finally {
  polling = false;
  await dispatcher.close();
  await server.stop();
}
for (const e of errors) console.log(`  error at ${e}`);
stalls.sort((a, b) => b - a);
console.log(
  `answers slower than 1 s: ${stalls.length}` +
    (stalls.length ? ` (slowest ${stalls.slice(0, 5).join(', ')} ms)` : '') +
    `; connections opened ${opened}, dropped by the server or the network ${drops.length}` +
    (drops.length ? ` (${drops.join(', ')})` : ''),
);
console.log(
  `keep-alive polling: ${counts.requests} requests in ${seconds} s, ${counts.ok} answered, ` +
    `resets ${counts.resets}, other errors ${counts.otherErrors}; ${counts.sessions} sessions (${counts.attempts} attempts made); load ${load()}`,
);
