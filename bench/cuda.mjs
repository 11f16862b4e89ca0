// The cuda backend on a real GPU (issue 32): the device's peaks as measured at start; the reference as its own
// candidate on ReLU and square matmul (ranked, default rules: identical code must read 1.00x within 2%), each beside a
// do_bench-style anchor of the same kernel timed in the same run (bench/cuda-anchor.cu: the reference's time must be
// within 1.3x of it); a pair of ReLU kernels whose anchor ratio R is about 2 (the runner must read R within 10%); the
// four hostile kernels of issue 32 (a rewritten synchronize, rewritten events, the probe answered from the
// candidate's own arrays, work from a second thread after the reply: each must be rejected or read within the honest
// kernel's interval), each also run once with the harness's probe turned off (KFORGE_CUDA_PROBE=off) to watch it win
// without it; then the older cases (a forged reply, another stream, a wrong ReLU). One line per case, then the issue's
// "Done when" figures, each PASS or FAIL; exits 1 when any check fails. Within 8 minutes on one H100 (--all adds the
// rest of the earlier cases: reruns, naive matmul, broken, cache by pointer, out of bounds, host secrets, endless).
// Run (on a machine with an NVIDIA GPU, nvcc and bubblewrap): node_modules/.bin/tsx bench/cuda.mjs [--quick] [--all]
//   --quick: the test-only quick timing rules. Without a GPU it says so and exits 2.
//   --rehearse: without a GPU, against a table H100: every source compiles with nvcc and each case that reaches the
//   GPU ends runtime_error (verdicts printed, not checked), so the script and its kernels can be tried anywhere.
// A GPU machine without Node and the workspace: `node bench/cuda-bundle.mjs` writes one self-contained file,
// packages/runner/.gpu/cuda.mjs, that runs the same checks with a bare `node` (see bench/README.md, "CUDA").
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { discoverDevices, evaluate, loadCatalogue, sandboxAvailable } from '../packages/runner/src/index.ts';
import { CUBLAS_HEADER } from '../packages/runner/src/backends/c-abi/compile/toolchain.ts';
import { measureCudaPeaks } from '../packages/runner/src/devices/cuda-peaks.ts';

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
const nvccVersion = tool('nvcc', ['--version']);
console.log(`nvcc: ${nvccVersion.split('\n').find((l) => l.includes('release')) ?? '?'}`);
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
const identical2 = (s) =>
  accepted(s) ??
  (Math.abs(s.benchmarking_result.speedup - 1) <= 0.02
    ? null
    : `identical code read ${fmt(s.benchmarking_result.speedup)}x`);
const identical = (s) =>
  accepted(s) ??
  (Math.abs(s.benchmarking_result.speedup - 1) <= 0.03
    ? null
    : `identical code read ${fmt(s.benchmarking_result.speedup)}x`);
const honestInterval = {};
const twoPass = `#include <stdint.h>
__global__ void copy(const float* x, float* y, int64_t n) {
  int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i];
}
__global__ void relu_in_place(float* y, int64_t n) {
  int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = fmaxf(y[i], 0.0f);
}
extern "C" void solution(const float* x, float* y, int64_t n) {
  unsigned blocks = (unsigned)((n + 255) / 256);
  copy<<<blocks, 256>>>(x, y, n);
  relu_in_place<<<blocks, 256>>>(y, n);
}
`;
const HOSTILE = [
  ['rewrite_sync', 'cheats-cuda/rewrite_sync.cu'],
  ['rewrite_events', 'cheats-cuda/rewrite_events.cu'],
  ['probe_own_arrays', 'cheats-cuda/probe_own_arrays.cu'],
  ['after_reply_thread', 'cheats-cuda/after_reply_thread.cu'],
];
// Rejected (or not accepted at all), or accepted no faster than the honest ReLU's interval says it could be.
const noGain = (s) => {
  if (s.verdict !== 'accepted') return null;
  const hi = honestInterval.relu?.[1];
  const sp = s.benchmarking_result.speedup;
  return hi === undefined || sp <= hi * 1.02 ? null : `accepted at ${fmt(sp)}x, above the honest ReLU's ${fmt(hi)}x`;
};
// [name, problem, source, mode, check(state) -> null when as expected, else what is wrong, options]
const CASES = [
  [
    'relu good (honest interval)',
    '19_ReLU',
    read('candidates/relu_good.cu'),
    'benchmark',
    accepted,
    { honest: 'relu' },
  ],
  ['relu reference as candidate (ranked)', '19_ReLU', asCandidate('19_ReLU'), 'ranked', identical2],
  [
    'matmul reference as candidate (ranked)',
    '1_Square_matrix_multiplication_',
    asCandidate('1_Square_matrix_multiplication_'),
    'ranked',
    identical2,
  ],
  ['relu two passes (anchor pair)', '19_ReLU', twoPass, 'benchmark', accepted],
  ...HOSTILE.map(([n, f]) => [`hostile: ${n}`, '19_ReLU', read(f), 'benchmark', noGain]),
  ...HOSTILE.map(([n, f]) => [
    `hostile without the probe: ${n}`,
    '19_ReLU',
    read(f),
    'benchmark',
    () => null,
    { probeOff: true, timing: 'quick' },
  ]),
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
  ['cheat: another stream, no sync', '19_ReLU', read('cheats-cuda/other_stream.cu'), 'benchmark', noGain],
  [
    'relu wrong (copies x)',
    '19_ReLU',
    wrongRelu,
    'benchmark',
    (s) => (s.verdict === 'incorrect' ? null : `expected incorrect, got ${s.verdict}`),
  ],
];
const MORE = [
  ['relu reference as candidate (ranked, rerun)', '19_ReLU', asCandidate('19_ReLU'), 'ranked', identical],
  ['matmul naive kernel', '1_Square_matrix_multiplication_', naiveMatmul, 'benchmark', accepted],
  [
    'relu broken (compile)',
    '19_ReLU',
    read('candidates/relu_broken.cu'),
    'benchmark',
    (s) => (s.verdict === 'compile_error' ? null : `expected compile_error, got ${s.verdict}`),
  ],
  ['cheat: forged reply, own reply hidden', '19_ReLU', read('cheats-cuda/hide_reply.cu'), 'ranked', notAccepted],
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
if (process.argv.includes('--all')) CASES.push(...MORE);

// ---- The do_bench-style anchor (bench/cuda-anchor.cu), in the same run ----

const anchorDir = join(workDir, 'anchor');
mkdirSync(anchorDir, { recursive: true });
/** Builds the anchor for `source` (a `solution`), signature `sig` (relu | matmul); the binary's path, or why not.
    Kept in the work dir under a hash of everything the build reads (the sources, the flags, nvcc's version): a later
    run, or the bundle's rehearsal after the script's, reuses it instead of three nvcc builds (16 s on the 2-core VM). */
function buildAnchor(name, source, sig) {
  const src = join(anchorDir, `${name}.cu`);
  writeFileSync(src, source);
  const cublas = source.includes('cublas') && existsSync(CUBLAS_HEADER) ? ['-lcublas'] : [];
  const arch = `-arch=sm_${String(device.computeCapability ?? '9.0').replace('.', '')}`;
  const anchorSource = readFileSync(join(root, 'bench/cuda-anchor.cu'), 'utf8');
  const key = createHash('sha256')
    .update([anchorSource, source, sig, arch, ...cublas, nvccVersion].join('\0'))
    .digest('hex')
    .slice(0, 16);
  const bin = join(anchorDir, `anchor-${name}-${key}`);
  if (existsSync(bin)) return { bin };
  try {
    // Built under another name and renamed once whole, so a build cut short is never taken for a cached one.
    execFileSync(
      'nvcc',
      [
        '-O3',
        arch,
        `-DKF_SIG_${sig.toUpperCase()}`,
        '-o',
        `${bin}.part`,
        join(root, 'bench/cuda-anchor.cu'),
        src,
        ...cublas,
      ],
      { stdio: 'pipe', timeout: 180_000, env: { ...process.env, PATH: `/usr/local/cuda/bin:${process.env.PATH}` } },
    );
    renameSync(`${bin}.part`, bin);
    return { bin };
  } catch (e) {
    return {
      error: String(e.stderr ?? e.message)
        .split('\n')
        .slice(0, 3)
        .join(' | '),
    };
  }
}
/** Runs an anchor at size n: {median_ms, ...}, or why not. */
function runAnchor(built, n, reps = 300) {
  if (built.error) return { error: built.error };
  if (rehearse) return { error: `rehearsal: would run ${built.bin} ${n} ${reps}` };
  try {
    return JSON.parse(execFileSync(built.bin, [String(n), String(reps)], { encoding: 'utf8', timeout: 120_000 }));
  } catch (e) {
    return { error: String(e.stderr ?? e.message).split('\n')[0] };
  }
}
const sizeOf = (problem, mode) => {
  const p = problems.get(problem);
  const c = mode === 'ranked' && p.cases.ranked.length ? p.cases.ranked[0] : p.cases.benchmark[0];
  return c.sizes.n;
};
const anchors = {};
{
  const t0 = performance.now();
  const reluRef = buildAnchor('relu-ref', asCandidate('19_ReLU'), 'relu');
  const mmRef = buildAnchor('matmul-ref', asCandidate('1_Square_matrix_multiplication_'), 'matmul');
  const relu2 = buildAnchor('relu-two-pass', twoPass, 'relu');
  anchors.relu = runAnchor(reluRef, sizeOf('19_ReLU', 'ranked'));
  anchors.matmul = runAnchor(mmRef, sizeOf('1_Square_matrix_multiplication_', 'ranked'));
  // The pair, at the benchmark size the runner times it at.
  anchors.reluBench = runAnchor(reluRef, sizeOf('19_ReLU', 'benchmark'));
  anchors.relu2 = runAnchor(relu2, sizeOf('19_ReLU', 'benchmark'));
  console.log(
    `anchors (do_bench style, ${((performance.now() - t0) / 1000).toFixed(1)} s): ${JSON.stringify(anchors)}`,
  );
}

// ---- The device's peaks, as the runner measured them at start ----

const peaks = rehearse
  ? measureCudaPeaks(device.id, device.computeCapability ?? '9.0', device.peaks, workDir)
  : { peaks: device.peaks };
console.log(`peaks: ${JSON.stringify(peaks.peaks)}${peaks.error ? ` (not measured: ${peaks.error})` : ''}`);

const only = process.argv.slice(2).filter((a) => !a.startsWith('--'));
let failures = 0;
let ran = 0;
const began = performance.now();
const results = {};
for (const [name, problem, source, mode, check, opts = {}] of CASES) {
  if (only.length && !only.some((o) => name.includes(o))) continue;
  ran++;
  const t0 = performance.now();
  let state;
  let profile;
  if (opts.probeOff) process.env.KFORGE_CUDA_PROBE = 'off';
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
      {
        problems,
        device,
        workDir,
        timing: opts.timing ?? (quick ? 'quick' : 'default'),
        computeCapability: device.computeCapability,
        onProfile: (p) => {
          profile = p.harness;
        },
      },
    );
  } catch (e) {
    failures++;
    console.log(`FAIL  ${name}: evaluate threw ${e.stack ?? e}`);
    continue;
  } finally {
    delete process.env.KFORGE_CUDA_PROBE;
  }
  results[name] = { state, opts };
  const b = state.benchmarking_result;
  if (opts.honest && b?.speedup_interval) honestInterval[opts.honest] = b.speedup_interval;
  const seconds = ((performance.now() - t0) / 1000).toFixed(1);
  const wrong = rehearse ? null : check(state);
  if (wrong) failures++;
  console.log(
    `${wrong ? 'FAIL' : 'ok  '}  ${name}: ${state.verdict} in ${seconds} s: ${state.message}${wrong ? `\n      ${wrong}` : ''}`,
  );
  if (b) {
    const iv = (i) => (i ? ` [${fmt(i[0])}, ${fmt(i[1])}]` : '');
    console.log(
      `      time ${fmt(b.optimized_time, 4)} ms${iv(b.optimized_time_interval)}, baseline ${fmt(b.baseline_time, 4)} ms, speedup ${fmt(b.speedup)}x${iv(b.speedup_interval)}, ${fmt(b.gbps, 1)} GB/s, ${fmt(b.gflops, 1)} GFLOP/s, ${fmt(100 * b.fraction_of_peak, 1)}% of peak${b.flagged_for_review ? `, flagged: ${b.review_reasons.join('; ')}` : ''}`,
    );
    for (const c of b.cases)
      console.log(
        `      case ${c.name}: median ${fmt(c.optimized.median_ms, 4)} ms (${c.optimized.samples} samples), baseline ${fmt(c.baseline.median_ms, 4)} ms, speedup ${fmt(c.speedup)}x${iv(c.speedup_interval)}, inside (events) ${fmt(c.inside_ms, 4)} ms, outside (to the probe's answer) ${fmt(c.outside_ms, 4)} ms`,
      );
    if (b.load) console.log(`      load: ${JSON.stringify(b.load)}`);
  }
  if (profile && 'probe_candidate' in profile)
    console.log(
      `      probe: candidate ${profile.probe_candidate ? 'read' : 'NOT read'}, baseline ${profile.probe_baseline ? 'read' : 'NOT read'}; SM clock ${profile.sm_mhz_min}-${profile.sm_mhz_max} MHz (0: not read)`,
    );
  if (state.verdict !== 'accepted' && state.stderr)
    console.log(`      stderr: ${state.stderr.slice(0, 300).replace(/\n/g, ' | ')}`);
}

// ---- Issue 32's "Done when", figure by figure ----

const checks = [];
const done = (ok, text) => checks.push(`${ok === null ? 'n/a ' : ok ? 'PASS' : 'FAIL'}  ${text}`);
const res = (n) => results[n]?.state;
for (const [label, n] of [
  ['ReLU', 'relu reference as candidate (ranked)'],
  ['matmul', 'matmul reference as candidate (ranked)'],
]) {
  const s = res(n);
  const sp = s?.benchmarking_result?.speedup;
  done(
    sp === undefined ? null : Math.abs(sp - 1) <= 0.02,
    `identical code on ${label} (ranked, default rules) reads 1.00x within 2%: ${sp === undefined ? `no figure (${s?.verdict ?? 'not run'})` : `${fmt(sp)}x${s.benchmarking_result.speedup_interval ? ` [${fmt(s.benchmarking_result.speedup_interval[0])}, ${fmt(s.benchmarking_result.speedup_interval[1])}]` : ''}`}`,
  );
  const a = anchors[label === 'ReLU' ? 'relu' : 'matmul'];
  const ref = s?.benchmarking_result?.cases?.[0]?.baseline?.median_ms;
  const r = ref !== undefined && a?.median_ms ? ref / a.median_ms : undefined;
  done(
    r === undefined ? null : r <= 1.3,
    `${label}: the reference's time ${fmt(ref, 4)} ms is within 1.3x of the do_bench anchor ${fmt(a?.median_ms, 4)} ms: ${r === undefined ? `n/a ${a?.error ?? ''}` : `${fmt(r)}x`}`,
  );
}
{
  const s = res('relu two passes (anchor pair)');
  const R =
    anchors.relu2?.median_ms && anchors.reluBench?.median_ms
      ? anchors.relu2.median_ms / anchors.reluBench.median_ms
      : undefined;
  const sp = s?.benchmarking_result?.speedup;
  const read = sp ? 1 / sp : undefined;
  done(
    R === undefined || read === undefined ? null : Math.abs(read / R - 1) <= 0.1,
    `the pair (ReLU in two passes against the reference) whose anchor ratio is R = ${fmt(R)} reads ${fmt(read)} (R within 10%)`,
  );
}
for (const [n] of HOSTILE) {
  const s = res(`hostile: ${n}`);
  const off = res(`hostile without the probe: ${n}`);
  const sp = s?.benchmarking_result?.speedup;
  done(
    s === undefined ? null : noGain(s) === null,
    `hostile ${n}: ${s ? `${s.verdict}${sp !== undefined ? ` at ${fmt(sp)}x` : ''}` : 'not run'} (honest ReLU ${honestInterval.relu ? `[${fmt(honestInterval.relu[0])}, ${fmt(honestInterval.relu[1])}]` : 'n/a'}); without the probe: ${off ? `${off.verdict}${off.benchmarking_result ? ` at ${fmt(off.benchmarking_result.speedup)}x` : ''}` : 'not run'}`,
  );
}
done(
  rehearse ? null : device.peaks.source === 'measured',
  `the device's peaks are measured: ${device.peaks.source}, ${fmt(device.peaks.bandwidth_gbps, 0)} GB/s, ${fmt(device.peaks.fp32_gflops, 0)} GFLOP/s fp32${device.peaks.theoretical_basis ? ` (${device.peaks.theoretical_basis})` : ''}`,
);
console.log(`\nissue 32, done when (${device.name}):\n  ${checks.join('\n  ')}`);
const failedChecks = checks.filter((c) => c.startsWith('FAIL')).length;
console.log(
  `${ran - failures} ${ran - failures === 1 ? 'case' : 'cases'} as expected, ${failures} not; ${failedChecks} of ${checks.length} checks failed; in ${((performance.now() - began) / 1000).toFixed(0)} s`,
);
process.exit(failures || (failedChecks && !rehearse) ? 1 : 0);

function fmt(x, digits = 3) {
  return typeof x === 'number' ? x.toFixed(digits) : String(x);
}
