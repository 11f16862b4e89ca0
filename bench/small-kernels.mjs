// Issue 10's "correct kernels are never called cheats" on a busy machine: a plain, correct ReLU on a custom
// problem whose only benchmark case is small (short calls, where the harness's round trip weighs most),
// evaluated 20 times per size with the default timing rules while one busy loop per core runs outside the
// sandbox. Prints the verdicts; an honest kernel must be accepted 20 times of 20.
// Run: node_modules/.bin/tsx bench/small-kernels.mjs [runs]   (prints figures; never fails on timing)
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
const runs = Number(process.argv[2] ?? 20);
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
console.log(`device ${device.id} (${device.name}, ${cores} cores); ${runs} runs per size, default timing rules`);
const burners = Array.from({ length: cores }, () => spawn('sh', ['-c', 'while :; do :; done'], { stdio: 'ignore' }));
try {
  for (const n of [1_024, 16_384, 65_536]) {
    const verdicts = {};
    const times = [];
    for (let i = 0; i < runs; i++) {
      const s = await evaluate(job(n), { problems, device, workDir, timing: 'default' });
      verdicts[s.verdict] = (verdicts[s.verdict] ?? 0) + 1;
      if (s.verdict !== 'accepted') console.log(`  n=${n} run ${i + 1}: ${s.verdict}: ${s.message}`);
      if (s.benchmarking_result) times.push(s.benchmarking_result.optimized_time);
    }
    times.sort((a, b) => a - b);
    console.log(
      `n = ${n}: accepted ${verdicts.accepted ?? 0}/${runs} ${JSON.stringify(verdicts)}; median time ${(times[times.length >> 1] ?? 0).toFixed(4)} ms; load ${loadavg()[0].toFixed(2)}`,
    );
  }
} finally {
  for (const b of burners) b.kill('SIGKILL');
}
