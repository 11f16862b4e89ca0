// Issue 10's "one timing at a time per host and device": two servers, each with its own data folder and its own
// in-process cpu runner, on one machine, each running a matmul tuner session at the same time. Their runners
// share the host-wide timing lock, so compiles and correctness checks may overlap but timings never do. Prints
// the best time of a lone session, then of each of the two concurrent ones, and their ratio to the lone one.
// Usage: node_modules/.bin/tsx bench/two-servers.mjs [attempts=4] [problem=1_Square_matrix_multiplication_]
// Runs the servers from source (tsx); prints figures; never fails on timing.
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { createClient } from '../packages/sdk/src/index.ts';
import { root, startBenchServer, sourceServerArgv } from './server.mjs';

const attempts = Number(process.argv[2] ?? 4);
const problem = process.argv[3] ?? '1_Square_matrix_multiplication_';
const load = () => loadavg()[0].toFixed(2);

/** A server from source (tsx, so it needs no build; the bundle where KFORGE_SERVER_BIN names it). */
function startServer() {
  return startBenchServer({
    createClient,
    argv: sourceServerArgv(),
    env: { TSX_TSCONFIG_PATH: join(root, 'packages/server/test/helpers/tsconfig.sources.json') },
    readySeconds: 120,
  });
}

async function session(client) {
  const { data: devices } = await client.devices.list();
  const cpu = devices.find((d) => d.kind === 'cpu');
  const created = await client.sessions.create({ problem_name: problem, device: cpu.id, max_attempts: attempts });
  let s = created;
  while (s.status === 'active') {
    await new Promise((r) => setTimeout(r, 1000));
    s = await client.sessions.get(created.id);
  }
  const r = s.best_attempt?.evaluation_state?.benchmarking_result;
  const locks = s.generation_attempts
    .map((a) => a.evaluation_state?.benchmarking_result?.load?.lock_wait_ms ?? 0)
    .reduce((x, y) => Math.max(x, y), 0);
  return { best: r?.optimized_time ?? Number.NaN, attempt: s.best_attempt?.attempt_number, maxLockWaitMs: locks };
}

console.log(
  `${problem}, ${attempts} attempts per session; load ${load()}${process.env.KFORGE_RUNNER_TIMING === 'quick' ? '; quick timing rules (a smoke run: figures not comparable)' : ''}`,
);
const a = await startServer();
const b = await startServer();
try {
  const lone = await session(a.client);
  console.log(`lone session (server A): best #${lone.attempt} ${lone.best.toFixed(3)} ms; load ${load()}`);
  const [ra, rb] = await Promise.all([session(a.client), session(b.client)]);
  for (const [name, r] of [
    ['A', ra],
    ['B', rb],
  ])
    console.log(
      `concurrent session (server ${name}): best #${r.attempt} ${r.best.toFixed(3)} ms = ${(r.best / lone.best).toFixed(3)}x the lone run; longest wait for the timing lock ${(r.maxLockWaitMs / 1000).toFixed(1)} s; load ${load()}`,
    );
} finally {
  await a.stop();
  await b.stop();
}
