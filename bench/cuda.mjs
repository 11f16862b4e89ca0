// The cuda backend on a real GPU: discovery, a correct ReLU, the reference as its own candidate (identical code must
// read 1.00x), reruns, a wrong and a broken kernel, hostile kernels (a forged reply, another stream, a cache by
// pointer, an endless kernel, an out-of-bounds write, host code looking for secrets) and square matmul. One line per
// case with its verdict and figures; exits 1 when any verdict is not what the case expects.
// Run (on a machine with an NVIDIA GPU, nvcc and bubblewrap): node_modules/.bin/tsx bench/cuda.mjs [--quick]
//   --quick: the test-only quick timing rules. Without a GPU it says so and exits 2.
//   --rehearse: without a GPU, against a table H100: every source compiles with nvcc and each case that reaches the
//   GPU ends runtime_error (verdicts printed, not checked), so the script and its kernels can be tried anywhere.
// A GPU machine without Node and the workspace: `node bench/cuda-bundle.mjs` writes one self-contained file,
// packages/runner/.gpu/cuda.mjs, that runs the same checks with a bare `node` (see bench/README.md, "CUDA").
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { discoverDevices, evaluate, loadCatalogue, sandboxAvailable } from '../packages/runner/src/index.ts';

const root = process.env.KFORGE_ROOT ?? fileURLToPath(new URL('..', import.meta.url));
const quick = process.argv.includes('--quick');
const workDir = join(tmpdir(), 'kforge-cuda-bench');
mkdirSync(workDir, { recursive: true });
const problems = loadCatalogue(join(root, 'problems'));
const read = (p) => readFileSync(join(root, 'packages/runner/test', p), 'utf8');

function tool(cmd, args) {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8', timeout: 20_000 }).trim();
  } catch (e) {
    return `(${cmd} failed: ${String(e.message).split('\n')[0]})`;
  }
}
console.log(
  `nvidia-smi: ${tool('nvidia-smi', ['--query-gpu=name,driver_version,memory.total,clocks.max.sm', '--format=csv,noheader'])}`,
);
console.log(
  `nvcc: ${
    tool('nvcc', ['--version'])
      .split('\n')
      .find((l) => l.includes('release')) ?? '?'
  }`,
);
console.log(`sandbox: ${sandboxAvailable() ? 'bubblewrap' : 'NONE'}`);
const rehearse = process.argv.includes('--rehearse');
const device = rehearse
  ? {
      id: 'cuda-H100',
      kind: 'cuda',
      name: 'NVIDIA H100 80GB HBM3 (rehearsal: no GPU here)',
      peaks: { bandwidth_gbps: 3350, fp32_gflops: 67_000, source: 'table' },
      available: true,
      runners: 1,
      languages: ['cuda'],
      computeCapability: '9.0',
    }
  : discoverDevices({ workDir }).find((d) => d.kind === 'cuda');
if (!device) {
  console.log('no cuda device found (nvidia-smi lists none): nothing to check here');
  process.exit(2);
}
console.log(
  `device: ${device.id} (${device.name}), compute capability ${device.computeCapability}, peaks ${JSON.stringify(device.peaks)}`,
);

const asCandidate = (problem) => problems.get(problem).reference_cu.replace(/\breference\s*\(/, 'solution(');
const naiveMatmul = `#include <stdint.h>
__global__ void mm(const float* A, const float* B, float* C, int64_t n) {
  int64_t r = (int64_t)blockIdx.y * 16 + threadIdx.y, c = (int64_t)blockIdx.x * 16 + threadIdx.x;
  if (r >= n || c >= n) return;
  float acc = 0.0f;
  for (int64_t k = 0; k < n; k++) acc += A[r * n + k] * B[k * n + c];
  C[r * n + c] = acc;
}
extern "C" void solution(const float* A, const float* B, float* C, int64_t n) {
  dim3 b(16, 16), g((unsigned)((n + 15) / 16), (unsigned)((n + 15) / 16));
  mm<<<g, b>>>(A, B, C, n);
}
`;
const wrongRelu = read('candidates/relu_good.cu').replace('fmaxf(x[i], 0.0f)', 'x[i]');

// [name, problem, source, mode, check(state) -> null when as expected, else what is wrong]
const accepted = (s) => (s.verdict === 'accepted' ? null : `expected accepted, got ${s.verdict}: ${s.message}`);
const notAccepted = (s) => (s.verdict !== 'accepted' ? null : `expected not accepted, got accepted: ${s.message}`);
const identical = (s) =>
  accepted(s) ??
  (Math.abs(s.benchmarking_result.speedup - 1) <= 0.03
    ? null
    : `identical code read ${fmt(s.benchmarking_result.speedup)}x`);
const honestTime = (s) =>
  s.verdict !== 'accepted' || s.benchmarking_result.speedup < 3
    ? null
    : `accepted at ${fmt(s.benchmarking_result.speedup)}x: a forged time`;
const CASES = [
  ['relu good', '19_ReLU', read('candidates/relu_good.cu'), 'benchmark', accepted],
  ['relu reference as candidate (ranked)', '19_ReLU', asCandidate('19_ReLU'), 'ranked', identical],
  ['relu reference as candidate (ranked, rerun)', '19_ReLU', asCandidate('19_ReLU'), 'ranked', identical],
  [
    'matmul reference as candidate (ranked)',
    '1_Square_matrix_multiplication_',
    asCandidate('1_Square_matrix_multiplication_'),
    'ranked',
    identical,
  ],
  ['matmul naive kernel', '1_Square_matrix_multiplication_', naiveMatmul, 'benchmark', accepted],
  [
    'relu wrong (copies x)',
    '19_ReLU',
    wrongRelu,
    'benchmark',
    (s) => (s.verdict === 'incorrect' ? null : `expected incorrect, got ${s.verdict}`),
  ],
  [
    'relu broken (compile)',
    '19_ReLU',
    read('candidates/relu_broken.cu'),
    'benchmark',
    (s) => (s.verdict === 'compile_error' ? null : `expected compile_error, got ${s.verdict}`),
  ],
  [
    'cheat: forged early reply',
    '19_ReLU',
    read('cheats-cuda/early_reply.cu'),
    'ranked',
    (s) =>
      s.verdict === 'rejected' && /reply pipe/.test(s.message)
        ? null
        : `expected rejected (a forged reply), got ${s.verdict}: ${s.message}`,
  ],
  ['cheat: forged reply, own reply hidden', '19_ReLU', read('cheats-cuda/hide_reply.cu'), 'ranked', notAccepted],
  [
    'cheat: another stream, no sync',
    '19_ReLU',
    read('cheats-cuda/other_stream.cu'),
    'ranked',
    (s) => accepted(s) ?? honestTime(s),
  ],
  ['cheat: cache by pointer', '19_ReLU', read('cheats-cuda/cache_by_pointer.cu'), 'ranked', notAccepted],
  ['cheat: out-of-bounds write', '19_ReLU', read('cheats-cuda/out_of_bounds.cu'), 'benchmark', notAccepted],
  [
    'cheat: host code looks for secrets',
    '19_ReLU',
    read('cheats-cuda/host_secrets.cu'),
    'benchmark',
    (s) =>
      s.verdict === 'incorrect' && !/host_secrets: \//.test(s.stderr ?? '') && !/network/.test(s.stderr ?? '')
        ? null
        : `expected incorrect with nothing visible, got ${s.verdict}; stderr: ${(s.stderr ?? '').slice(0, 200)}`,
  ],
  [
    'cheat: endless kernel',
    '19_ReLU',
    read('cheats-cuda/infinite_loop.cu'),
    'benchmark',
    (s) => (s.verdict === 'timeout' ? null : `expected timeout, got ${s.verdict}: ${s.message}`),
  ],
  ['relu good after the endless kernel', '19_ReLU', read('candidates/relu_good.cu'), 'benchmark', accepted],
];

const only = process.argv.slice(2).filter((a) => !a.startsWith('--'));
let failures = 0;
let ran = 0;
const began = performance.now();
for (const [name, problem, source, mode, check] of CASES) {
  if (only.length && !only.some((o) => name.includes(o))) continue;
  ran++;
  const t0 = performance.now();
  let state;
  try {
    state = await evaluate(
      {
        kind: 'attempt',
        target_id: 'cuda-bench',
        mode,
        problem_name: problem,
        device: device.id,
        language: 'cuda',
        source,
      },
      { problems, device, workDir, timing: quick ? 'quick' : 'default', computeCapability: device.computeCapability },
    );
  } catch (e) {
    failures++;
    console.log(`FAIL  ${name}: evaluate threw ${e.stack ?? e}`);
    continue;
  }
  const seconds = ((performance.now() - t0) / 1000).toFixed(1);
  const wrong = rehearse ? null : check(state);
  if (wrong) failures++;
  console.log(
    `${wrong ? 'FAIL' : 'ok  '}  ${name}: ${state.verdict} in ${seconds} s: ${state.message}${wrong ? `\n      ${wrong}` : ''}`,
  );
  const b = state.benchmarking_result;
  if (b) {
    const iv = (i) => (i ? ` [${fmt(i[0])}, ${fmt(i[1])}]` : '');
    console.log(
      `      time ${fmt(b.optimized_time, 4)} ms${iv(b.optimized_time_interval)}, baseline ${fmt(b.baseline_time, 4)} ms, speedup ${fmt(b.speedup)}x${iv(b.speedup_interval)}, ${fmt(b.gbps, 1)} GB/s, ${fmt(b.gflops, 1)} GFLOP/s, ${fmt(100 * b.fraction_of_peak, 1)}% of peak${b.flagged_for_review ? `, flagged: ${b.review_reasons.join('; ')}` : ''}`,
    );
    for (const c of b.cases)
      console.log(
        `      case ${c.name}: median ${fmt(c.optimized.median_ms, 4)} ms (${c.optimized.samples} samples), baseline ${fmt(c.baseline.median_ms, 4)} ms, speedup ${fmt(c.speedup)}x${iv(c.speedup_interval)}, inside ${fmt(c.inside_ms, 4)} ms, outside ${fmt(c.outside_ms, 4)} ms`,
      );
    if (b.load) console.log(`      load: ${JSON.stringify(b.load)}`);
  }
  if (state.verdict !== 'accepted' && state.stderr)
    console.log(`      stderr: ${state.stderr.slice(0, 300).replace(/\n/g, ' | ')}`);
}
console.log(`${ran - failures} as expected, ${failures} not, in ${((performance.now() - began) / 1000).toFixed(0)} s`);
process.exit(failures ? 1 : 0);

function fmt(x, digits = 3) {
  return typeof x === 'number' ? x.toFixed(digits) : String(x);
}
