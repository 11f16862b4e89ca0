// The tuner on pytorch problems through the real product: a session per problem on the cpu device, every
// attempt evaluated by the in-process runner's torch backend (eager PyTorch and the TorchScript-frozen reference
// timed interleaved in the same evaluation), then each attempt's point, verdict and figures, and the best.
// Usage: node bench/torch-tuner-session.mjs [attempts=5] [problem ...]   (default: 201_Gemm_GELU_Scale 101_HardSigmoid)
// Needs a built workspace (pnpm build) and Debian's python3-torch. Prints figures; never fails on timing.
// KFORGE_TORCH_BUDGET_MB (default here 64) and KFORGE_TORCH_COMPILE_TIMEOUT_S (default here 900) pass through;
// KFORGE_RUNNER_WORK_DIR keeps the load_inline build cache between runs; KFORGE_SERVER_MAIN picks another server build.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '../packages/sdk/dist/index.js';

const attempts = Number(process.argv[2] ?? 5);
const problems = process.argv.slice(3).length ? process.argv.slice(3) : ['201_Gemm_GELU_Scale', '101_HardSigmoid'];
const root = new URL('..', import.meta.url).pathname;
const dataDir = mkdtempSync(join(tmpdir(), 'kforge-bench-torch-'));
const port = 19000 + Math.floor(Math.random() * 1000);
const admin = { email: 'bench@example.com', password: 'bench-password-1' };
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const ms = (x) => (x == null ? '-' : `${x.toFixed(2)} ms`);

console.log(`machine: ${cpus()[0]?.model}, ${cpus().length} cpus; load ${load()}; ${new Date().toISOString()}`);
const server = spawn(process.execPath, [process.env.KFORGE_SERVER_MAIN ?? join(root, 'packages/server/dist/main.js')], {
  env: {
    ...process.env,
    PORT: String(port),
    KFORGE_DATA_DIR: dataDir,
    KFORGE_ADMIN_EMAIL: admin.email,
    KFORGE_ADMIN_PASSWORD: admin.password,
    KFORGE_LOG_LEVEL: 'warn',
    KFORGE_TORCH_BUDGET_MB: process.env.KFORGE_TORCH_BUDGET_MB ?? '64',
    KFORGE_TORCH_COMPILE_TIMEOUT_S: process.env.KFORGE_TORCH_COMPILE_TIMEOUT_S ?? '900',
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const baseUrl = `http://127.0.0.1:${port}`;
try {
  for (let i = 0; i < 600; i++) {
    if (
      await fetch(`${baseUrl}/readyz`)
        .then((r) => r.ok)
        .catch(() => false)
    )
      break;
    await new Promise((r) => setTimeout(r, 500));
  }
  const client = createClient({ baseUrl });
  await client.auth.loginWithPassword({ username: admin.email, password: admin.password });
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
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  rmSync(dataDir, { recursive: true, force: true });
}
