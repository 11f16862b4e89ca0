// Issue 10's "correct kernels are never called cheats" on a busy machine: a plain, correct ReLU on a custom
// problem whose only benchmark case is small (short calls, where the harness's round trip weighs most),
// evaluated 20 times per size with the default timing rules while one busy loop per core runs outside the
// sandbox. Prints the verdicts; an honest kernel must be accepted 20 times of 20. Then OpenMP kernels on two
// catalogue problems, with how many of their calls were flagged for cpu outside the timed window.
// Run: node_modules/.bin/tsx bench/small-kernels.mjs [runs] [--short]   (prints figures; never fails on timing)
//   --short: the test-only quick timing rules and one OpenMP run per problem (CI's smoke run: tests/bench/)
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { discoverDevices, evaluate, loadCatalogue } from '../packages/runner/src/index.ts';

const root = new URL('..', import.meta.url).pathname;
const workDir = join(tmpdir(), 'kforge-small-bench');
mkdirSync(workDir, { recursive: true });
const problems = loadCatalogue(join(root, 'problems'));
const device = discoverDevices({ workDir })[0];
const short = process.argv.includes('--short');
const runs = Number(process.argv.slice(2).find((a) => !a.startsWith('--')) ?? 20);
const timing = short ? 'quick' : 'default';
const relu =
  '#include <stdint.h>\nvoid solution(const float* x, float* y, int64_t n) { for (int64_t i = 0; i < n; i++) y[i] = x[i] > 0 ? x[i] : 0; }';
const job = (n) => ({
  kind: 'attempt',
  target_id: 'bench',
  mode: 'benchmark',
  problem_name: 'relu small',
  device: device.id,
  language: 'c',
  source: relu,
  custom_problem: {
    signature: [
      { name: 'x', type: 'f32*', role: 'in', shape: ['n'] },
      { name: 'y', type: 'f32*', role: 'out', shape: ['n'] },
      { name: 'n', type: 'i64', role: 'size' },
    ],
    reference_source: relu,
    language: 'c',
    cases: { test: [{ name: 't1000', sizes: { n: 1000 } }], benchmark: [{ name: 'b', sizes: { n } }] },
    cost: { flops: 'n', bytes: '8*n' },
  },
});

const cores = availableParallelism();
console.log(`device ${device.id} (${device.name}, ${cores} cores); ${runs} runs per size, ${timing} timing rules`);
const burners = Array.from({ length: cores }, () => spawn('sh', ['-c', 'while :; do :; done'], { stdio: 'ignore' }));
try {
  for (const n of [1_024, 16_384, 65_536]) {
    const verdicts = {};
    const times = [];
    for (let i = 0; i < runs; i++) {
      const s = await evaluate(job(n), { problems, device, workDir, timing });
      verdicts[s.verdict] = (verdicts[s.verdict] ?? 0) + 1;
      if (s.verdict !== 'accepted') console.log(`  n=${n} run ${i + 1}: ${s.verdict}: ${s.message}`);
      if (s.benchmarking_result) times.push(s.benchmarking_result.optimized_time);
    }
    times.sort((a, b) => a - b);
    console.log(
      `n = ${n}: accepted ${verdicts.accepted ?? 0}/${runs} ${JSON.stringify(verdicts)}; median time ${(times[times.length >> 1] ?? 0).toFixed(4)} ms; load ${loadavg()[0].toFixed(2)}`,
    );
  }
  // OpenMP kernels on the catalogue's problems: how often a call is flagged for cpu outside its timed window
  // (a running thread's cpu time read a tick late), against the rule's limit (at least 4, and over a quarter).
  const omp = {
    '19_ReLU': `#include <stdint.h>
void solution(const float* restrict x, float* restrict y, int64_t n) {
#pragma omp parallel for simd schedule(static)
  for (int64_t i = 0; i < n; i++) y[i] = x[i] > 0.0f ? x[i] : 0.0f;
}`,
    '4_Matrix_vector_multiplication_': `#include <stdint.h>
void solution(const float* restrict A, const float* restrict x, float* restrict y, int64_t m, int64_t k) {
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < m; i++) {
    float s = 0.0f;
#pragma omp simd reduction(+ : s)
    for (int64_t j = 0; j < k; j++) s += A[i * k + j] * x[j];
    y[i] = s;
  }
}`,
  };
  for (const [name, source] of Object.entries(omp)) {
    const verdicts = {};
    let flagged = 0;
    let calls = 0;
    let worst = 0;
    for (let i = 0; i < (short ? 1 : Math.max(3, runs >> 2)); i++) {
      const s = await evaluate(
        {
          kind: 'attempt',
          target_id: 'bench',
          mode: 'benchmark',
          problem_name: name,
          device: device.id,
          language: 'c',
          source,
        },
        {
          problems,
          device,
          workDir,
          timing,
          onProfile: (p) => {
            flagged += p.harness.flagged_calls ?? 0;
            calls += p.harness.calls ?? 0;
            worst = Math.max(worst, (p.harness.flagged_calls ?? 0) / Math.max(1, p.harness.calls ?? 1));
          },
        },
      );
      verdicts[s.verdict] = (verdicts[s.verdict] ?? 0) + 1;
      if (s.verdict !== 'accepted') console.log(`  ${name} run ${i + 1}: ${s.verdict}: ${s.message}`);
    }
    console.log(
      `${name} (OpenMP): ${JSON.stringify(verdicts)}; flagged calls ${flagged} of ${calls} (${((100 * flagged) / Math.max(1, calls)).toFixed(2)}%, worst run ${(100 * worst).toFixed(1)}%); load ${loadavg()[0].toFixed(2)}`,
    );
  }
} finally {
  for (const b of burners) b.kill('SIGKILL');
}
