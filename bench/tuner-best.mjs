// Issue 20's "a tuner session beside a busy neighbour names as best an attempt whose point is truly fastest, and no
// identical-code point reads slower": a tuner session through the real product (server, in-process runner) while a
// busy loop keeps one core busy, then its top points re-timed side by side on the machine as it is (rounds of
// benchmark evaluations in rotating order, the neighbour gone), and the session's best compared with the fastest of
// those. An attempt whose source is the reference's own code (the torch tuner's eager point) must not read slower.
// Run: node_modules/.bin/tsx bench/tuner-best.mjs [problem=19_ReLU] [attempts=6] [rounds=3] [--top 3] [--quiet]
//   --quiet: no neighbour during the session.  --short: the test-only quick timing rules throughout (CI's smoke run:
//   tests/bench/).  Prints figures; never fails on timing.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  discoverDevices,
  evaluate,
  loadCatalogue,
  loadTorchProblems,
  torchFilesIn,
} from '../packages/runner/src/index.ts';
import { createClient } from '../packages/sdk/src/index.ts';
import { root, startBenchServer } from './server.mjs';

const flag = (name) => process.argv.indexOf(name);
const topAt = flag('--top');
const top = topAt > 0 ? Number(process.argv[topAt + 1]) : 3;
const quietSession = process.argv.includes('--quiet');
const short = process.argv.includes('--short');
const args = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && all[i - 1] !== '--top');
const name = args[0] ?? '19_ReLU';
const attempts = Number(args[1] ?? 6);
const rounds = Number(args[2] ?? 3);
const load = () => loadavg()[0].toFixed(2);
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const workDir = join(tmpdir(), 'kforge-tuner-best');
mkdirSync(workDir, { recursive: true });
const problems = loadCatalogue(join(root, 'problems'));
if (!problems.has(name)) {
  const files = torchFilesIn(join(root, 'problems', 'pytorch'), 'builtin');
  const loaded = await loadTorchProblems(files, { taken: new Set(problems.keys()), cacheDir: join(workDir, 'torch') });
  for (const p of loaded.problems) problems.set(p.name, p);
}
const problem = problems.get(name);
if (!problem) throw new Error(`no problem ${name}`);
const torch = problem.kind === 'pytorch';
const device = discoverDevices({ workDir })[0];
const referenceCode = torch ? (problem.torch?.source ?? '') : null;

console.log(
  `${short ? '(quick timing rules: a smoke run, figures not comparable) ' : ''}${name}: a ${attempts}-attempt tuner session ${quietSession ? 'on the machine as it is' : 'beside a busy loop on one core'}, then its top ${top} points re-timed side by side in ${rounds} rounds; device ${device.id}; load ${load()}`,
);
const server = await startBenchServer({
  createClient,
  env: {
    KFORGE_TORCH_COMPILE_TIMEOUT_S: process.env.KFORGE_TORCH_COMPILE_TIMEOUT_S ?? '900',
    ...(short ? { KFORGE_RUNNER_TIMING: 'quick' } : {}),
  },
  readySeconds: 300,
});
let session;
const burner = quietSession ? null : spawn('sh', ['-c', 'while :; do :; done'], { stdio: 'ignore' });
try {
  const { data: devices } = await server.client.devices.list();
  const cpu = devices.find((d) => d.kind === 'cpu');
  const created = await server.client.sessions.create({
    problem_name: name,
    device: cpu.id,
    max_attempts: attempts,
    agent: { provider: 'tuner' },
  });
  session = created;
  while (session.status === 'active') {
    await new Promise((r) => setTimeout(r, 2000));
    session = await server.client.sessions.get(created.id);
  }
} finally {
  burner?.kill('SIGKILL');
  await server.stop();
}

const done = session.generation_attempts.filter((a) => a.evaluation_state?.benchmarking_result);
console.log(`session: ${done.length} of ${session.generation_attempts.length} attempts timed; load ${load()}`);
for (const a of session.generation_attempts) {
  const r = a.evaluation_state?.benchmarking_result;
  const identical =
    referenceCode !== null && a.source?.includes('return super().forward(*args)') && /mode=eager/.test(a.source);
  console.log(
    `  #${a.attempt_number}${identical ? ' (the reference, as written)' : ''}: ${r ? `${r.optimized_time.toFixed(3)} ms, ${r.speedup.toFixed(3)}x` : (a.evaluation_state?.verdict ?? a.status)} - ${a.evaluation_state?.message ?? ''}`,
  );
}
const best = session.best_attempt;
const ranked = [...done].sort(
  (a, b) =>
    a.evaluation_state.benchmarking_result.optimized_time - b.evaluation_state.benchmarking_result.optimized_time,
);
const chosen = ranked.slice(0, top);
const times = new Map(chosen.map((a) => [a.attempt_number, []]));
for (let r = 0; r < rounds; r++) {
  const order = chosen.map((_, i) => chosen[(i + r) % chosen.length]);
  for (const a of order) {
    const st = await evaluate(
      {
        kind: 'attempt',
        target_id: `best-${a.attempt_number}-${r}`,
        mode: 'benchmark',
        problem_name: name,
        device: device.id,
        language: torch ? 'pytorch' : 'c',
        source: a.source,
      },
      { problems, device, workDir, ...(short ? { timing: 'quick' } : {}) },
    );
    const t = st.benchmarking_result?.optimized_time;
    if (t !== undefined) times.get(a.attempt_number).push(t);
  }
}
const side = chosen
  .map((a) => ({ n: a.attempt_number, t: median(times.get(a.attempt_number)) }))
  .sort((x, y) => x.t - y.t);
console.log(`side by side (median of ${rounds} rounds, load ${load()}):`);
for (const s of side)
  console.log(
    `  #${s.n}: ${s.t.toFixed(3)} ms (${times
      .get(s.n)
      .map((t) => t.toFixed(3))
      .join(', ')})`,
  );
const fastest = side[0];
console.log(
  `session's best #${best?.attempt_number}; fastest side by side #${fastest?.n}: ${best?.attempt_number === fastest?.n ? 'the same' : `different (#${best?.attempt_number} ${((median(times.get(best?.attempt_number) ?? [Number.NaN]) / fastest.t - 1) * 100).toFixed(1)}% slower side by side)`}`,
);
