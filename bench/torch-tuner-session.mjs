// The tuner on pytorch problems through the real product: a session per problem on the cpu device, every
// attempt evaluated by the in-process runner's torch backend (eager PyTorch and the TorchScript-frozen reference
// timed interleaved in the same evaluation), then each attempt's point, verdict and figures, and the best.
// Usage: node bench/torch-tuner-session.mjs [attempts=5] [problem ...]   (default: 201_Gemm_GELU_Scale 101_HardSigmoid)
// Needs a built workspace (pnpm build) and Debian's python3-torch. Prints figures; never fails on timing.
// KFORGE_TORCH_BUDGET_MB (default here 64) and KFORGE_TORCH_COMPILE_TIMEOUT_S (default here 900) pass through;
// KFORGE_RUNNER_WORK_DIR keeps the load_inline build cache between runs; KFORGE_SERVER_MAIN picks another server build.
import { cpus, loadavg } from 'node:os';
import { createClient } from '../packages/sdk/dist/index.js';
import { startBenchServer } from './server.mjs';

const attempts = Number(process.argv[2] ?? 5);
const problems = process.argv.slice(3).length ? process.argv.slice(3) : ['201_Gemm_GELU_Scale', '101_HardSigmoid'];
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const ms = (x) => (x == null ? '-' : `${x.toFixed(2)} ms`);

console.log(`machine: ${cpus()[0]?.model}, ${cpus().length} cpus; load ${load()}; ${new Date().toISOString()}`);
if (process.env.KFORGE_RUNNER_TIMING === 'quick')
  console.log('quick timing rules (a smoke run: figures not comparable)');
const server = await startBenchServer({
  createClient,
  ...(process.env.KFORGE_SERVER_MAIN ? { argv: [process.env.KFORGE_SERVER_MAIN] } : {}),
  env: {
    KFORGE_TORCH_BUDGET_MB: process.env.KFORGE_TORCH_BUDGET_MB ?? '64',
    KFORGE_TORCH_COMPILE_TIMEOUT_S: process.env.KFORGE_TORCH_COMPILE_TIMEOUT_S ?? '900',
  },
  readySeconds: 300,
});
const { client } = server;
try {
  const { data: devices } = await client.devices.list();
  const cpu = devices.find((d) => d.kind === 'cpu');
  console.log(`device ${cpu.id}; toolchains ${JSON.stringify(cpu.toolchains ?? {})}`);
  for (const problem of problems) {
    const started = Date.now();
    const created = await client.sessions.create({
      problem_name: problem,
      device: cpu.id,
      max_attempts: attempts,
      agent: { provider: 'tuner' },
    });
    let session = created;
    while (session.status === 'active') {
      await new Promise((r) => setTimeout(r, 2000));
      session = await client.sessions.get(created.id);
    }
    console.log(
      `\n${problem}: ${session.generation_attempts.length} attempts in ${((Date.now() - started) / 1000).toFixed(0)} s, load ${load()}`,
    );
    for (const a of session.generation_attempts) {
      const r = a.evaluation_state?.benchmarking_result;
      const point = /\(mode=([^)]*)\)/.exec(a.source ?? '')?.[1] ?? '?';
      const sizes = a.evaluation_state?.sizes_used;
      console.log(
        `  #${a.attempt_number} [${point}] ${a.evaluation_state?.verdict ?? a.status}` +
          (r
            ? `: ${ms(r.optimized_time)} vs eager ${ms(r.baseline_time)} (${r.speedup.toFixed(2)}x), vs TorchScript freeze ${ms(r.compiled_baseline_time)} (${r.speedup_over_compiled?.toFixed(2) ?? '-'}x)` +
              `${r.load ? `, load ${JSON.stringify(r.load)}` : ''}`
            : ` ${a.evaluation_state?.message ?? a.error ?? ''}`) +
          (sizes && a.attempt_number === 1 ? `\n     sizes used: ${JSON.stringify(sizes)}` : ''),
      );
    }
    const best = session.best_attempt;
    const r = best?.evaluation_state?.benchmarking_result;
    if (r)
      console.log(
        `  best: #${best.attempt_number} ${ms(r.optimized_time)}, ${r.speedup.toFixed(2)}x eager PyTorch, ${r.speedup_over_compiled?.toFixed(2) ?? '-'}x TorchScript freeze (same evaluation)`,
      );
  }
} finally {
  await server.stop();
}
