// Issue 37's GPU checks (the cuda build facts and the prepared Nsight Compute run), for a GPU machine with or without
// the workspace: a cuda ReLU and a tiled matmul evaluated through the runner's own evaluate() (quick timing rules), as
// bench/cuda.mjs does; each kernel's facts printed (registers, stack, spills, shared memory, occupancy per block size
// with its basis, the assembly's kind SASS or PTX, the hot loop); then profile/ncu.ts's runNcuProfile on both kernels
// (test/cuda/ncu_driver.cu), the four metrics and the duration printed, ncu's raw CSV saved beside them. Checks, each
// PASS, FAIL or n/a: both accepted; the facts of each kernel; SASS where cuobjdump exists; each evaluation's own ncu
// run (profile/ncu-run.ts) giving its counters (ReLU memory-bound, matmul compute-bound); ncu's counters available,
// every metric read, ReLU memory-bound (DRAM% > SM%), matmul compute-bound (SM% > DRAM%); the whole run within 3
// minutes. Exits 1 when a check fails. The same checks as KFORGE_TEST_GPU=1 packages/runner/test/cuda-facts.test.ts.
// Run (a GPU, nvcc, bubblewrap): node_modules/.bin/tsx bench/cuda-facts.mjs [--rehearse] [--save DIR]
//   --save DIR: where ncu's CSV goes (default: the work dir), to replace test/cuda/ncu-details.csv with a recorded one.
//   --rehearse: without a GPU, against a table H100: both sources compile, the facts come from ptxas (checked), the
//   evaluations end runtime_error (not checked), and it says what it would run for SASS and ncu (the driver is built).
// Without Node: `node bench/cuda-bundle.mjs` here, then `sh packages/runner/.gpu/run-facts.sh` there (bench/README.md).
import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { discoverDevices, evaluate, loadCatalogue, sandboxAvailable } from '../packages/runner/src/index.ts';
import { toolchainFor } from '../packages/runner/src/backends/c-abi/compile/toolchain.ts';
import { findCuobjdump } from '../packages/runner/src/profile/cuda-facts.ts';
import { findNcu, ncuArgv, runNcuProfile } from '../packages/runner/src/profile/ncu.ts';

const BUDGET_S = 180;
const began = performance.now();
const elapsed = () => (performance.now() - began) / 1000;
const root = process.env.KFORGE_ROOT ?? fileURLToPath(new URL('..', import.meta.url));
const rehearse = process.argv.includes('--rehearse');
const saveAt = process.argv.indexOf('--save');
const workDir = join(tmpdir(), 'kforge-cuda-facts-bench');
mkdirSync(workDir, { recursive: true });
const saveDir = saveAt > 0 && process.argv[saveAt + 1] ? process.argv[saveAt + 1] : workDir;
const fixtures = join(root, 'packages/runner/test');
const read = (p) => readFileSync(join(fixtures, p), 'utf8');
const fmt = (x, d = 1) => (typeof x === 'number' ? x.toFixed(d) : 'n/a');

// The peaks are not what this checks: the table's, so no peaks program is built and run first.
process.env.KFORGE_CUDA_PEAKS ??= 'table';
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
  console.log('no cuda device found (nvidia-smi lists none): nothing to check here (--rehearse runs without one)');
  process.exit(2);
}
const tc = toolchainFor('cuda', device.computeCapability);
const cuobjdump = findCuobjdump(tc.binary);
const ncu = findNcu();
console.log(`device: ${device.id} (${device.name}), compute capability ${device.computeCapability}`);
console.log(`nvcc: ${tc.binary} (${tc.version}); sandbox: ${sandboxAvailable() ? 'bubblewrap' : 'NONE'}`);
const onPath = (cmd) => {
  try {
    return execFileSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
};
console.log(
  `cuobjdump: ${cuobjdump ?? `none (findCuobjdump; on PATH: ${onPath('cuobjdump') ?? 'none'})`}; ncu: ${ncu ?? `none (findNcu; on PATH: ${onPath('ncu') ?? 'none'})`}`,
);

// The ncu driver (ReLU + tiled matmul, one launch each) builds while the evaluations run.
const driver = join(workDir, 'ncu-driver');
writeFileSync(join(workDir, 'relu.cu'), read('candidates/relu_good.cu'));
const driverArgs = [
  '-O3',
  rehearse ? `-arch=sm_${device.computeCapability.replace('.', '')}` : '-arch=native',
  join(workDir, 'relu.cu'),
  join(fixtures, 'cuda/gemm.cu'),
  join(fixtures, 'cuda/ncu_driver.cu'),
  '-o',
  driver,
];
const driverBuilt = promisify(execFile)(tc.binary, driverArgs, { timeout: 150_000 }).then(
  () => null,
  (e) => String(e.stderr || e.message).slice(0, 400),
);

const problems = loadCatalogue(join(root, 'problems'));
const tiledMatmul = `${read('cuda/gemm.cu')}
extern "C" void solution(const float* A, const float* B, float* C, int64_t n) { kf_gemm(A, B, C, n, n, n); }
`;
const CASES = [
  { label: 'ReLU', problem: '19_ReLU', source: read('candidates/relu_good.cu'), kernel: '_Z4reluPKfPfl', smem: 0 },
  {
    label: 'tiled matmul',
    problem: '1_Square_matrix_multiplication_',
    source: tiledMatmul,
    kernel: '_Z13kf_tiled_gemmPKfS0_Pflll',
    smem: 2048,
  },
];

const checks = [];
const check = (ok, text) => {
  checks.push({ ok, text });
  console.log(`${ok === null ? 'n/a ' : ok ? 'PASS' : 'FAIL'}  ${text}`);
};

for (const c of CASES) {
  const t0 = performance.now();
  let state;
  try {
    state = await evaluate(
      {
        kind: 'attempt',
        target_id: 'cuda-facts-bench',
        mode: 'benchmark',
        problem_name: c.problem,
        device: device.id,
        language: 'cuda',
        source: c.source,
      },
      { problems, device, workDir, timing: 'quick', computeCapability: device.computeCapability },
    );
  } catch (e) {
    check(false, `${c.label}: evaluate threw ${e.stack ?? e}`);
    continue;
  }
  console.log(
    `\n${c.label}: ${state.verdict} in ${((performance.now() - t0) / 1000).toFixed(1)} s: ${state.message ?? ''}`,
  );
  const b = state.benchmarking_result;
  if (b) console.log(`  time ${fmt(b.optimized_time, 4)} ms, speedup ${fmt(b.speedup, 2)}x (quick rules)`);
  const facts = state.compile?.facts;
  const cuda = facts?.cuda;
  if (cuda) {
    console.log(`  arch ${cuda.arch}, assembly ${cuda.assembly_kind.toUpperCase()}, limits: ${cuda.limits_source}`);
    for (const k of cuda.kernels) {
      console.log(
        `  kernel ${k.name} (${k.mangled}): ${k.registers} registers, stack ${k.stack_bytes} B, spill stores ${k.spill_store_bytes} B / loads ${k.spill_load_bytes} B, shared ${k.shared_bytes} B, barriers ${k.barriers ?? 'n/a'}, launch bounds ${k.max_threads ?? 'none'}`,
      );
      for (const o of k.occupancy)
        console.log(
          `    occupancy at ${o.block_size} threads: ${fmt(100 * o.occupancy, 0)}% (${o.warps_per_sm}/${o.max_warps_per_sm} warps, ${o.blocks_per_sm} blocks/SM, limiter ${o.limiter}); basis: ${o.basis}`,
        );
    }
    const h = facts.hot_loop;
    console.log(
      `  hot loop: ${h ? `${h.function}, ${cuda.assembly_kind.toUpperCase()} lines ${h.start_line}-${h.end_line}` : 'none'}; symbols ${facts.symbols.join(', ')}`,
    );
    for (const n of facts.notes ?? []) console.log(`  note: ${n}`);
    console.log(`  counters: ${facts.counters.reason}`);
  }
  if (state.verdict !== 'accepted' && state.stderr)
    console.log(`  stderr: ${state.stderr.slice(0, 300).replace(/\n/g, ' | ')}`);

  check(rehearse ? null : state.verdict === 'accepted', `${c.label} accepted on the GPU: ${state.verdict}`);
  const k = cuda?.kernels.find((x) => x.mangled === c.kernel);
  const o = k?.occupancy[0];
  check(
    Boolean(
      k &&
        k.registers > 0 &&
        k.spill_store_bytes === 0 &&
        k.shared_bytes === c.smem &&
        o?.block_size === 256 &&
        o.occupancy > 0 &&
        !/^assumed/.test(o.basis),
    ),
    `${c.label} facts from ptxas: ${c.kernel} ${k ? `${k.registers} registers, ${k.spill_store_bytes} B spilled, ${k.shared_bytes} B shared (want ${c.smem}), occupancy ${fmt(100 * (o?.occupancy ?? 0), 0)}% at ${o?.block_size} threads (${o?.basis})` : 'missing'}`,
  );
  if (rehearse || !cuobjdump)
    check(
      null,
      `${c.label} SASS: ${cuobjdump ? `would check the assembly is SASS from ${cuobjdump}` : 'no cuobjdump here'}; the assembly is ${cuda?.assembly_kind ?? 'none'}`,
    );
  else
    check(
      cuda?.assembly_kind === 'sass' && facts.assembly.includes(`Function : ${c.kernel}`),
      `${c.label} SASS where cuobjdump exists: assembly ${cuda?.assembly_kind ?? 'none'}${facts?.assembly.includes(`Function : ${c.kernel}`) ? `, with Function : ${c.kernel}` : `, no Function : ${c.kernel}`}`,
    );
  // The evaluation's own ncu run (profile/ncu-run.ts: the worker under ncu inside its sandbox, after the verdict).
  const cv = facts?.counters;
  if (rehearse || !ncu)
    check(
      null,
      `${c.label} counters from the evaluation's ncu run: ${ncu ? 'rehearsal' : 'no ncu here'}; ${cv?.reason}`,
    );
  else {
    const v = cv?.values ?? {};
    const bound =
      c.label === 'ReLU' ? v.dram_throughput_pct > v.sm_throughput_pct : v.sm_throughput_pct > v.dram_throughput_pct;
    check(
      Boolean(cv?.available && bound && v.achieved_occupancy_pct > 0 && v.duration_ns > 0),
      `${c.label} counters from the evaluation's ncu run: ${cv?.available ? `DRAM ${fmt(v.dram_throughput_pct)}%, SM ${fmt(v.sm_throughput_pct)}%, achieved occupancy ${fmt(v.achieved_occupancy_pct)}%, L2 hit ${fmt(v.l2_hit_rate_pct)}%, ${fmt(v.duration_ns, 0)} ns (${c.label === 'ReLU' ? 'memory' : 'compute'}-bound wanted); ${cv.reason}` : cv?.reason}`,
    );
  }
}

// ---- The prepared Nsight Compute run (profile/ncu.ts) on both kernels ----

console.log('');
const built = await driverBuilt;
const kernels = ['relu', 'kf_tiled_gemm'];
if (built) check(false, `the ncu driver builds: ${built}`);
else if (rehearse || !ncu) {
  check(
    null,
    `the ncu driver built; ncu ${ncu ? '' : '(not found here) '}would run, in ${workDir}: ${ncuArgv(ncu ?? 'ncu', kernels, [driver]).join(' ')}`,
  );
} else {
  // ncu as runNcuProfile runs it, through a wrapper that keeps its CSV (the recorded sample the notes ask for).
  const csv = join(workDir, 'ncu-details.csv');
  const tee = join(workDir, 'ncu-tee.sh');
  writeFileSync(tee, `#!/bin/sh\n'${ncu}' "$@" > '${csv}'\nrc=$?\ncat '${csv}'\nexit $rc\n`);
  chmodSync(tee, 0o755);
  const timeoutMs = Math.max(20_000, Math.min(120_000, (BUDGET_S - 10 - elapsed()) * 1000));
  const t0 = performance.now();
  const r = await runNcuProfile({ command: [driver], kernels, cwd: workDir, ncu: tee, timeoutMs });
  console.log(`ncu: ${((performance.now() - t0) / 1000).toFixed(1)} s; ${r.counters.reason}`);
  if (existsSync(csv)) {
    if (saveDir !== workDir) {
      mkdirSync(saveDir, { recursive: true });
      copyFileSync(csv, join(saveDir, 'ncu-details.csv'));
    }
    console.log(`ncu's CSV: ${join(saveDir, 'ncu-details.csv')}`);
  }
  for (const k of r.kernels)
    console.log(
      `  ${k.name} (block ${k.block_size}, grid ${k.grid_size}): DRAM ${fmt(k.metrics.dram_throughput_pct)}%, SM ${fmt(k.metrics.sm_throughput_pct)}%, achieved occupancy ${fmt(k.metrics.achieved_occupancy_pct)}%, L2 hit ${fmt(k.metrics.l2_hit_rate_pct)}%, ${fmt(k.metrics.duration_ns, 0)} ns`,
    );
  check(r.counters.available, `ncu counters available: ${r.counters.reason}`);
  const by = (n) => r.kernels.find((k) => k.name.split('(')[0] === n);
  for (const n of kernels) {
    const m = by(n)?.metrics ?? {};
    const missing = ['dram_throughput_pct', 'sm_throughput_pct', 'achieved_occupancy_pct', 'duration_ns'].filter(
      (x) => !(m[x] > 0),
    );
    if (!(m.l2_hit_rate_pct >= 0)) missing.push('l2_hit_rate_pct');
    check(
      by(n) !== undefined && missing.length === 0,
      `ncu read every metric of ${n}: ${by(n) ? (missing.length ? `missing ${missing.join(', ')}` : 'all five') : 'not profiled'}`,
    );
  }
  const relu = by('relu')?.metrics;
  const gemm = by('kf_tiled_gemm')?.metrics;
  check(
    relu ? relu.dram_throughput_pct > relu.sm_throughput_pct : false,
    `ReLU memory-bound: DRAM ${fmt(relu?.dram_throughput_pct)}% > SM ${fmt(relu?.sm_throughput_pct)}%`,
  );
  check(
    gemm ? gemm.sm_throughput_pct > gemm.dram_throughput_pct : false,
    `matmul compute-bound: SM ${fmt(gemm?.sm_throughput_pct)}% > DRAM ${fmt(gemm?.dram_throughput_pct)}%`,
  );
}

const seconds = elapsed();
check(rehearse ? null : seconds <= BUDGET_S, `within ${BUDGET_S / 60} minutes: ${seconds.toFixed(0)} s`);
const failed = checks.filter((c) => c.ok === false).length;
const passed = checks.filter((c) => c.ok === true).length;
console.log(
  `\nissue 37 GPU checks${rehearse ? ' (rehearsal)' : ''} on ${device.name}: ${passed} passed, ${failed} failed, ${checks.length - passed - failed} not checked; in ${seconds.toFixed(0)} s`,
);
process.exit(failed ? 1 : 0);
