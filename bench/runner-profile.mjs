// Where the seconds of one evaluation go: build (cache hit), the candidate's compile in the sandbox, and inside
// the harness the worker's sandbox start, the correctness phase and the timing phase per part.
// Run: node_modules/.bin/tsx bench/runner-profile.mjs [problem] [runs] [mode]
//   defaults: 19_ReLU, 3 runs, benchmark. Prints the median of each phase over the runs (ms).
//   --short: the test-only quick timing rules (CI's smoke run: tests/bench/)
// KFORGE_RUNNER_SRC=/path/to/packages/runner/src profiles another copy of the runner with that copy's problems/
// (e.g. `git archive HEAD packages/runner problems | tar -x -C /tmp/old`); one without the harness profile
// prints the Node-side phases and per-sample averages only.
import { mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const src = process.env.KFORGE_RUNNER_SRC ?? join(root, 'packages/runner/src');
const { discoverDevices, evaluate, loadCatalogue } = await import(join(src, 'index.ts'));
const short = process.argv.includes('--short');
const [problem = '19_ReLU', runsArg = '3', mode = 'benchmark'] = process.argv
  .slice(2)
  .filter((a) => !a.startsWith('--'));
const workDir = join(tmpdir(), 'kforge-runner-bench');
mkdirSync(workDir, { recursive: true });
const problems = loadCatalogue(join(src, '../../../problems'));
const device = discoverDevices({ workDir })[0];
const sources = {
  '19_ReLU': 'relu_omp.c',
  '1_Square_matrix_multiplication_': 'matmul_omp.c',
};
const source = readFileSync(join(root, 'packages/runner/test/candidates', sources[problem] ?? 'relu_omp.c'), 'utf8');
const job = {
  kind: 'attempt',
  target_id: 'bench',
  mode,
  problem_name: problem,
  device: device.id,
  language: 'c',
  source,
  ...(mode === 'ranked' ? { secret_seed: 'bench-secret' } : {}),
};
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

await evaluate(job, { problems, device, workDir, timing: 'quick' }); // warm the build cache
const rows = [];
for (let i = 0; i < Number(runsArg); i++) {
  let profile;
  const t0 = performance.now();
  const st = await evaluate(job, {
    problems,
    device,
    workDir,
    ...(short ? { timing: 'quick' } : {}),
    onProfile: (p) => (profile = p),
  });
  const wall = performance.now() - t0;
  const c = st.benchmarking_result?.cases[0];
  rows.push({
    wall,
    compile: st.compile?.duration_ms ?? 0,
    samples: c?.optimized.samples ?? 0,
    baseline_samples: c?.baseline.samples ?? 0,
    median: c?.optimized.median_ms ?? 0,
    profile,
  });
  console.log(
    `run ${i + 1}: ${st.verdict}, ${(wall / 1000).toFixed(2)} s, ${c?.optimized.samples} samples (baseline ${c?.baseline.samples}), median ${c?.optimized.median_ms.toFixed(3)} ms`,
  );
}
const m = (f) => median(rows.map(f));
console.log(
  `\n${problem} ${mode}: medians over ${rows.length} runs (load ${(await import('node:os')).loadavg()[0].toFixed(2)})`,
);
console.log(`  evaluate() wall            ${m((r) => r.wall).toFixed(0)} ms`);
console.log(`  candidate compile (bwrap)  ${m((r) => r.compile).toFixed(0)} ms`);
if (rows[0].profile) {
  const p = (k) => m((r) => r.profile.harness[k] ?? 0);
  const n = p('samples');
  console.log(`  harness build (cache hit)  ${m((r) => r.profile.build_ms).toFixed(1)} ms`);
  console.log(`  harness process wall       ${m((r) => r.profile.harness_ms).toFixed(0)} ms`);
  console.log(`    worker sandbox start     ${p('worker_start_ms').toFixed(1)} ms`);
  console.log(`    no-op calibration        ${p('calibrate_ms').toFixed(1)} ms`);
  console.log(`    correctness phase        ${p('correctness_ms').toFixed(0)} ms`);
  console.log(
    `    timing phase             ${p('timing_ms').toFixed(0)} ms: ${n} samples, ${p('baseline_samples')} baseline, ${p('checked')} checked, ${p('busy_windows')} 20-ms thread watches (whole run)`,
  );
  for (const [k, label] of [
    ['warmup_ms', 'warm-up'],
    ['setup_ms', 'fresh inputs (shared)'],
    ['setup_private_ms', 'fresh inputs (baseline)'],
    ['flush_ms', 'cache flushes'],
    ['baseline_calls_ms', 'baseline calls'],
    ['calls_ms', 'candidate calls'],
    ['checks_ms', 'checks (reference+compare)'],
    ['busy_ms', 'after-return thread scans'],
  ])
    console.log(
      `      ${label.padEnd(27)}${p(k).toFixed(0).padStart(6)} ms  (${(p(k) / Math.max(n, 1)).toFixed(2)} ms/sample)`,
    );
} else {
  const perSample = m((r) => (r.wall - r.compile) / Math.max(r.samples, 1));
  console.log(
    `  (no harness profile) samples ${m((r) => r.samples)}, baseline ${m((r) => r.baseline_samples)}, (wall - compile)/sample ${perSample.toFixed(1)} ms`,
  );
}
