// The tuner through the real product: a session per problem on the cpu device, evaluated by the in-process
// runner, then the best attempt's speedup over the reference, its fraction of the measured peak and the
// attempt that reached it. In the same run, on the same machine: OpenBLAS sgemm (n = 1024) and a STREAM-like
// triad (non-temporal and plain stores), before and after the sessions, and the device's peaks beside the
// theoretical FMA peak and the triad.
// Usage: node bench/tuner-session.mjs [attempts=8] [problem ... | all]
// Needs a built workspace (pnpm build), gcc and libopenblas-dev. Prints figures; never fails on timing.
import { readdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { createClient } from '../packages/sdk/dist/index.js';
import { gflops, machine, measureAnchors } from './anchors.mjs';
import { startBenchServer } from './server.mjs';

const attempts = Number(process.argv[2] ?? 8);
const root = new URL('..', import.meta.url).pathname;
const named = process.argv.slice(3);
const problems =
  named[0] === 'all'
    ? readdirSync(join(root, 'problems')).filter((p) => !p.startsWith('.'))
    : named.length
      ? named
      : ['19_ReLU', '1_Square_matrix_multiplication_'];
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const pct = (a, b) => `${((100 * a) / b).toFixed(0)}%`;

const m = machine();
console.log(`machine: ${m.model}, ${m.cores} cpus, ISA ${m.vectorIsa} (${m.isa}), caches ${m.caches}; load ${m.load}`);
if (process.env.KFORGE_RUNNER_TIMING === 'quick')
  console.log('quick timing rules (a smoke run: figures not comparable)');
// The anchors' runs each: 15, or 5 in a smoke run under the quick rules (tests/bench/bench-scripts.test.ts).
const anchorReps = process.env.KFORGE_RUNNER_TIMING === 'quick' ? 5 : 15;
const before = measureAnchors({ reps: anchorReps });
const anchorLine = (a) =>
  `OpenBLAS sgemm n=1024: best ${a.sgemm_best_ms?.toFixed(2)} ms (${gflops(1024, a.sgemm_best_ms).toFixed(1)} GFLOP/s), median ${a.sgemm_median_ms?.toFixed(2)} ms, median with caches flushed ${a.sgemm_cold_median_ms?.toFixed(2)} ms; ` +
  `triad (8M floats/array, 12 bytes/element): non-temporal best ${a.triad_nt_best_gbps.toFixed(1)} GB/s (median ${a.triad_nt_median_gbps.toFixed(1)}), plain best ${a.triad_best_gbps.toFixed(1)} GB/s (median ${a.triad_median_gbps.toFixed(1)}); load ${load()}`;
console.log(`anchors before: ${anchorLine(before)}`);

const server = await startBenchServer({ createClient });
const { client } = server;
const results = [];
try {
  const { data: devices } = await client.devices.list();
  const cpu = devices.find((d) => d.kind === 'cpu');
  const p = cpu.peaks;
  console.log(
    `device ${cpu.id} (${cpu.name}), ISA ${cpu.cpu?.vector_isa ?? '?'}; measured peaks ${p.bandwidth_gbps.toFixed(1)} GB/s, ${p.fp32_gflops.toFixed(1)} GFLOP/s` +
      (p.theoretical_fp32_gflops
        ? `; theoretical FMA peak ${p.theoretical_fp32_gflops.toFixed(1)} GFLOP/s (${p.theoretical_basis}): measured = ${pct(p.fp32_gflops, p.theoretical_fp32_gflops)}`
        : '') +
      `; bandwidth peak = ${pct(p.bandwidth_gbps, before.triad_nt_best_gbps)} of the non-temporal triad, ${pct(p.bandwidth_gbps, before.triad_best_gbps)} of the plain triad` +
      (p.measurement ? `; measured at load ${p.measurement.load_average} (${p.measurement.code_path})` : ''),
  );
  for (const problem of problems) {
    const started = Date.now();
    const created = await client.sessions.create({ problem_name: problem, device: cpu.id, max_attempts: attempts });
    let session = created;
    while (session.status === 'active') {
      await new Promise((r) => setTimeout(r, 1000));
      session = await client.sessions.get(created.id);
    }
    const best = session.best_attempt;
    const result = best?.evaluation_state?.benchmarking_result;
    console.log(
      `\n${problem}: ${session.generation_attempts.length} attempts in ${((Date.now() - started) / 1000).toFixed(1)} s, load ${load()}`,
    );
    for (const a of session.generation_attempts) {
      const r = a.evaluation_state?.benchmarking_result;
      console.log(
        `  #${a.attempt_number} ${a.evaluation_state?.verdict ?? a.status}` +
          (r
            ? ` ${r.optimized_time.toFixed(3)} ms, ${r.speedup.toFixed(2)}x, ${r.gbps.toFixed(1)} GB/s, ${r.gflops.toFixed(1)} GFLOP/s, ${(100 * r.fraction_of_peak).toFixed(0)}% of peak`
            : '') +
          (a.agent_meta?.point_key ? `  [${a.agent_meta.point_key}]` : ''),
      );
    }
    if (result) {
      console.log(
        `  best: attempt #${best.attempt_number}: ${result.speedup.toFixed(2)}x the reference, ${(100 * result.fraction_of_peak).toFixed(0)}% of measured peak (${result.gbps.toFixed(1)} GB/s, ${result.gflops.toFixed(1)} GFLOP/s)`,
      );
      results.push({ problem, best: best.attempt_number, ...result });
    } else results.push({ problem, best: null });
  }
} finally {
  await server.stop();
}

const after = measureAnchors({ reps: anchorReps });
console.log(`\nanchors after: ${anchorLine(after)}`);
const sgemmBest = Math.min(before.sgemm_best_ms ?? Number.NaN, after.sgemm_best_ms ?? Number.NaN);
const triadNt = Math.max(before.triad_nt_best_gbps, after.triad_nt_best_gbps);
const triadPlain = Math.max(before.triad_best_gbps, after.triad_best_gbps);
console.log('\nsummary (anchors: the better of before and after)');
for (const r of results) {
  if (r.best === null) {
    console.log(`  ${r.problem}: no accepted attempt`);
    continue;
  }
  let vs = '';
  if (r.problem === '1_Square_matrix_multiplication_' && Number.isFinite(sgemmBest))
    vs = `; vs OpenBLAS best ${sgemmBest.toFixed(2)} ms: ${(sgemmBest / r.optimized_time).toFixed(2)}x as fast`;
  if (r.problem === '19_ReLU')
    vs = `; ${r.gbps.toFixed(1)} GB/s = ${(r.gbps / triadNt).toFixed(2)}x the non-temporal triad, ${(r.gbps / triadPlain).toFixed(2)}x the plain triad`;
  console.log(
    `  ${r.problem}: best #${r.best} ${r.optimized_time.toFixed(3)} ms, ${r.speedup.toFixed(2)}x the reference${r.speedup < 1 ? ' (SLOWER than the reference)' : ''}${vs}`,
  );
}
