// The tuner through the real product: a session per problem on the cpu device, evaluated by the in-process
// runner, then the best attempt's speedup over the reference, its fraction of the measured peak and the
// attempt that reached it. Usage: node bench/tuner-session.mjs [attempts=8] [problem ...]
// Needs a built workspace (pnpm build). Prints figures; never fails on timing.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '../packages/sdk/dist/index.js';

const attempts = Number(process.argv[2] ?? 8);
const problems = process.argv.slice(3).length ? process.argv.slice(3) : ['19_ReLU', '1_Square_matrix_multiplication_'];
const root = new URL('..', import.meta.url).pathname;
const dataDir = mkdtempSync(join(tmpdir(), 'kforge-bench-'));
const port = 18000 + Math.floor(Math.random() * 1000);
const admin = { email: 'bench@example.com', password: 'bench-password-1' };

const server = spawn(process.execPath, [join(root, 'packages/server/dist/main.js')], {
  env: {
    ...process.env,
    PORT: String(port),
    KFORGE_DATA_DIR: dataDir,
    KFORGE_ADMIN_EMAIL: admin.email,
    KFORGE_ADMIN_PASSWORD: admin.password,
    KFORGE_LOG_LEVEL: 'warn',
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const baseUrl = `http://127.0.0.1:${port}`;
try {
  for (let i = 0; i < 120; i++) {
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
  console.log(
    `machine load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(
        ' ',
      )}; device ${cpu.id} (${cpu.name}), measured peaks ${cpu.peaks.bandwidth_gbps.toFixed(1)} GB/s, ${cpu.peaks.fp32_gflops.toFixed(0)} GFLOP/s`,
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
      `\n${problem}: ${session.generation_attempts.length} attempts in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    for (const a of session.generation_attempts) {
      const r = a.evaluation_state?.benchmarking_result;
      console.log(
        `  #${a.attempt_number} ${a.evaluation_state?.verdict ?? a.status}` +
          (r
            ? ` ${r.optimized_time.toFixed(3)} ms, ${r.speedup.toFixed(2)}x, ${r.gbps.toFixed(1)} GB/s, ${r.gflops.toFixed(1)} GFLOP/s, ${(100 * r.fraction_of_peak).toFixed(0)}% of peak`
            : ''),
      );
    }
    if (result) {
      console.log(
        `  best: attempt #${best.attempt_number}: ${result.speedup.toFixed(2)}x the reference, ${(100 * result.fraction_of_peak).toFixed(0)}% of measured peak (${result.gbps.toFixed(1)} GB/s, ${result.gflops.toFixed(1)} GFLOP/s)`,
      );
    }
  }
} finally {
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  rmSync(dataDir, { recursive: true, force: true });
}
