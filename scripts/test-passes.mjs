// Which vitest pass each test file runs in (vitest.config.ts's projects, scripts/test.mjs's passes). A new test file
// goes to `parallel` by itself; one that evaluates kernels must be listed in SERIAL, and one that exercises the
// database layer in POSTGRES. `node scripts/test-passes.mjs` checks that every test file is in exactly one pass.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Where vitest looks for test files (the type tests, *.test-d.ts, run in the parallel pass). */
export const TEST_FILES = ['packages/*/test/**/*.test.{ts,tsx}', 'tests/**/*.test.{ts,tsx}'];
export const TYPE_TEST_FILES = ['packages/*/test/**/*.test-d.ts'];

/**
 * Files that evaluate kernels (compile, check and time them, through the runner or the tuner's own gcc timing; or
 * run PyTorch), or compare timings: one worker per lane, one file at a time in each. There are two lanes, run side by
 * side (scripts/test.mjs): the runner's own files, which time kernels and assert on what timing rules do
 * (`SERIAL_TIMING`), and the product's files, which evaluate through the server, the CLI and the browser
 * (`SERIAL_PRODUCT`). Every evaluation takes the host-wide timing lock for its timed phase, so two timed phases never
 * overlap; what overlaps is compiling, checking and waiting. A file here asserts what holds under any load (the lane
 * beside it is load), or makes the load it tests itself.
 */
export const SERIAL_TIMING = [
  'packages/runner/test/accept.test.ts',
  // Evaluates an accepted ReLU to check its build facts.
  'packages/runner/test/build-facts.test.ts',
  'packages/runner/test/cheats.test.ts',
  'packages/runner/test/cuda.test.ts',
  // Runs the C harness's cuda path (timing included) against stand-ins for the stub and the probe.
  'packages/runner/test/cuda-probe.test.ts',
  // Compiles cuda candidates with nvcc through the runner and evaluates a ReLU to check its build facts.
  'packages/runner/test/cuda-facts.test.ts',
  'packages/runner/test/isolation.test.ts',
  // Runs the C harness's cuda path (a few timed samples) with its worker under a stand-in ncu.
  'packages/runner/test/ncu-run.test.ts',
  'packages/runner/test/progress.test.ts',
  // Makes its own load (a busy loop on every core) to test the wait before a re-timing.
  'packages/runner/test/quiet.test.ts',
  // Runs the peaks binary beside a held timing lock and beside busy loops it starts itself.
  'packages/runner/test/quiet-peaks.test.ts',
  'packages/runner/test/references.test.ts',
  'packages/runner/test/runner-loop.test.ts',
  // kforge-runner as a process: its trial job, a drained and a one-job runner, one killed mid-evaluation.
  'packages/runner/test/runner-process.test.ts',
  'packages/runner/test/timing.test.ts',
  'packages/runner/test/torch.test.ts',
  'packages/runner/test/torch-staged.test.ts',
  // Evaluates PyTorch candidates to check their torch facts (the extra, untimed profiled run).
  'packages/runner/test/torch-facts.test.ts',
  // Compiles the tuner's CUDA kernels with nvcc and runs its Triton kernel through an interpreter on PyTorch.
  'packages/server/test/agents/tuner-torch-gpu.test.ts',
  'packages/server/test/agents/tuner-search.test.ts',
  'packages/server/test/agents/tuner-start-points.test.ts',
  'packages/server/test/platform/compression.test.ts',
  // Not an evaluation, but a timing comparison (registration's cost for known and unknown addresses).
  'packages/server/test/platform/registration-timing.test.ts',
  // Runs every reference file in the sandboxed PyTorch inspection.
  'packages/server/test/platform/problems-check.test.ts',
  // The bench scripts, once each in a short mode (they evaluate and time kernels).
  'tests/bench/bench-scripts.test.ts',
];

export const SERIAL_PRODUCT = [
  // Polls a live session (the in-process runner evaluating) through stalls of the server's event loop.
  'packages/server/test/product/keep-alive.test.ts',
  'packages/server/test/product/pytorch-sessions.test.ts',
  'packages/server/test/product/pytorch.test.ts',
  'packages/server/test/product/replicas.test.ts',
  'packages/server/test/product/restart-attack.test.ts',
  'packages/server/test/product/restart.test.ts',
  'packages/server/test/product/session-loop.test.ts',
  'packages/server/test/product/standalone-runner.test.ts',
  'packages/server/test/product/sweeps.test.ts',
  // "Run tests" (issue 35): one test run evaluated through the in-process runner.
  'packages/server/test/product/test-runs.test.ts',
  // Two replicas and a runner evaluating a kernel while one replica is killed; a cluster of processes.
  'packages/server/test/platform/runner-failover.test.ts',
  'packages/server/test/platform/cluster-script.test.ts',
  'packages/cli/test/commands.test.ts',
  'packages/cli/test/pytorch.test.ts',
  'packages/cli/test/sweep.test.ts',
  'tests/e2e/code.test.ts',
  // Starts (and stops at once) a session to delete and restore it.
  'tests/e2e/deleted-sessions.test.ts',
  // A tuner session, a submission and a sweep (stopped at once) whose results it downloads.
  'tests/e2e/export.test.ts',
  // A tuner sweep of one problem, run to its score (a session and a ranked re-run).
  'tests/e2e/fast-p.test.ts',
  'tests/e2e/lifecycle.test.ts',
  // A ranked ReLU submission (for the leaderboard's chart) and a sweep stopped at once.
  'tests/e2e/phone-text.test.ts',
  // Starts (and stops) a session, which the agent and runner start on.
  'tests/e2e/names-and-empty.test.ts',
  // A tuner session and a submission on 19_ReLU, their Profile in Chromium and the CLI (issue 37).
  'tests/e2e/profile.test.ts',
  // Sessions that evaluate (an LLM stand-in's kernels and the tuner's), one against a peak set far too low.
  'tests/e2e/one-figure.test.ts',
  // The bench scripts that start two servers, each evaluating (tests/bench/bench-product.test.ts).
  'tests/bench/bench-product.test.ts',
  'tests/e2e/readable.test.ts',
  // Runs tests, then submits, through the in-process runner (issue 35).
  'tests/e2e/run-tests.test.ts',
  'tests/e2e/spec-walk.test.ts',
  'tests/e2e/sweeps.test.ts',
  'tests/e2e/web.test.ts',
];

/** Every file of the `serial` project (both lanes). */
export const SERIAL = [...SERIAL_TIMING, ...SERIAL_PRODUCT];

/**
 * Files of the `side` project: they neither evaluate kernels nor touch the test database, and mostly wait (servers
 * they start, a browser, load they make and measure). scripts/test.mjs runs them one at a time beside the `parallel`
 * pass, after the Postgres pass on that side, so their waiting overlaps the busier pass instead of adding to it.
 */
export const SIDE = [
  // The bench scripts that time no kernel (api: per-request cost and idle memory; cli; web).
  'tests/bench/bench-faces.test.ts',
];

/**
 * Server files run a second time on a real Postgres: those whose behaviour goes through SQL (queries, transactions,
 * locking, NOTIFY, migrations). Not the agents (no database), not the PyTorch evaluations (the database side of an
 * attempt is the C one's), not transport-only files (compression, configuration).
 */
export const POSTGRES = [
  'packages/server/test/product/admin-users.test.ts',
  // Password, email change and account deletion (transactions, FOR UPDATE, the one-time token's purpose check).
  'packages/server/test/platform/account.test.ts',
  'packages/server/test/platform/auth-google.test.ts',
  'packages/server/test/platform/auth-under-load.test.ts',
  'packages/server/test/platform/auth-mail.test.ts',
  'packages/server/test/platform/auth-password.test.ts',
  'packages/server/test/platform/cli-create-user.test.ts',
  // kforge-server migrate, backup and restore (PGlite on the first pass, pg_dump/pg_restore on the Postgres pass).
  'packages/server/test/platform/backup.test.ts',
  'packages/server/test/platform/fuzz.test.ts',
  'packages/server/test/platform/health.test.ts',
  'packages/server/test/platform/lifecycle.test.ts',
  'packages/server/test/platform/registration-timing.test.ts',
  'packages/server/test/platform/sdk-client.test.ts',
  'packages/server/test/platform/security.test.ts',
  'packages/server/test/platform/settings-admin.test.ts',
  'packages/server/test/platform/settings-agents.test.ts',
  'packages/server/test/platform/tokens.test.ts',
  'packages/server/test/product/api.test.ts',
  'packages/server/test/product/attempt-lifecycle.test.ts',
  'packages/server/test/product/authorization.test.ts',
  'packages/server/test/product/display-names.test.ts',
  'packages/server/test/product/leases.test.ts',
  'packages/server/test/product/limits.test.ts',
  'packages/server/test/product/llm-failure.test.ts',
  'packages/server/test/product/metrics.test.ts',
  'packages/server/test/product/queue-fair-share.test.ts',
  'packages/server/test/product/session-job-lifecycle.test.ts',
  'packages/server/test/product/sweeps.test.ts',
  'packages/server/test/product/queue-fairness.test.ts',
  'packages/server/test/product/queue-runner-time.test.ts',
  'packages/server/test/product/replicas.test.ts',
  // Result mail: claimed once per submission by an UPDATE ... FROM users (issue 35 item 4).
  'packages/server/test/product/result-mail.test.ts',
  'packages/server/test/product/restart-attack.test.ts',
  'packages/server/test/product/restart.test.ts',
  'packages/server/test/product/session-loop.test.ts',
  'packages/server/test/product/session-progress.test.ts',
  'packages/server/test/product/session-read.test.ts',
  'packages/server/test/product/standalone-runner.test.ts',
  // Migrations of several replicas at once, a newer schema refused, runner failover: Postgres only (they skip on PGlite).
  'packages/server/test/platform/migrate-replicas.test.ts',
  'packages/server/test/platform/newer-schema.test.ts',
  // Restarts a Postgres server of its own under two replicas (issue 36 item 1); skips outside the Postgres pass.
  'packages/server/test/platform/postgres-restart.test.ts',
  // A connection ended while a transaction holds it: the transaction fails, the process stays up; skips outside it.
  'packages/server/test/platform/pg-dropped-transaction.test.ts',
  // A runner gone silent mid-job: re-queued early by the reaper's SQL, logged and counted (issue 36 items 3 and 4).
  'packages/server/test/product/silent-runner.test.ts',
  'packages/server/test/platform/runner-failover.test.ts',
];

/** Every *.test.* and *.test-d.* file in the repository outside node_modules (relative paths). */
export function allTestFiles(dir = root) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...allTestFiles(path));
    else if (/\.test(-d)?\.(ts|tsx|js|mjs)$/.test(entry.name)) out.push(relative(root, path));
  }
  return out.sort();
}

/**
 * Files of the parallel pass that name an environment of their own (`// @vitest-environment happy-dom`): the
 * `parallel-dom` project, isolated, one process per file as they were written for (sonner's toasts and the like
 * live in module state). In the `parallel` project among the node files, each of them ended its worker's process,
 * since a process is kept for the next file only when that file wants the same environment: the pass started 22
 * processes, each importing the server's sources again (2026-11-28). Apart, the node files keep their two.
 */
export function ownEnvironmentFiles() {
  return allTestFiles().filter((f) => {
    if (SERIAL.includes(f) || SIDE.includes(f) || !/\.test\.tsx?$/.test(f)) return false;
    return /@vitest-environment\s+\S+/.test(readFileSync(join(root, f), 'utf8').slice(0, 2048));
  });
}

/** The files vitest runs in each project, as it resolves them itself: project name -> relative paths. */
function projectFiles() {
  const res = spawnSync('pnpm', ['exec', 'vitest', 'list', '--filesOnly', '--json'], { cwd: root, encoding: 'utf8' });
  if (res.status !== 0) throw new Error(`vitest list failed:\n${res.stdout}\n${res.stderr}`);
  const byProject = new Map();
  for (const t of JSON.parse(res.stdout.slice(res.stdout.indexOf('[')))) {
    if (!byProject.has(t.projectName)) byProject.set(t.projectName, new Set());
    byProject.get(t.projectName).add(relative(root, t.file));
  }
  return byProject;
}

/** Problems with the passes: a file in neither or both, a listed file that does not exist. Empty when all is well. */
export function checkPasses() {
  const problems = [];
  for (const [name, list] of [
    ['SERIAL', SERIAL],
    ['POSTGRES', POSTGRES],
    ['SIDE', SIDE],
  ])
    for (const f of list) if (!existsSync(join(root, f))) problems.push(`${f} is listed in ${name} but does not exist`);
  for (const f of POSTGRES)
    if (!f.startsWith('packages/server/')) problems.push(`${f} is in POSTGRES but is not a server test`);
  for (const f of SERIAL_TIMING)
    if (SERIAL_PRODUCT.includes(f)) problems.push(`${f} is in both serial lanes (SERIAL_TIMING and SERIAL_PRODUCT)`);
  for (const f of SIDE)
    if (SERIAL.includes(f) || POSTGRES.includes(f)) problems.push(`${f} is in SIDE and in SERIAL or POSTGRES`);
  const projects = projectFiles();
  const parallel = projects.get('parallel') ?? new Set();
  const parallelDom = projects.get('parallel-dom') ?? new Set();
  const serial = projects.get('serial') ?? new Set();
  const side = projects.get('side') ?? new Set();
  for (const name of projects.keys())
    if (!['parallel', 'parallel-dom', 'serial', 'side'].includes(name))
      problems.push(`vitest has a project ${name} that no pass runs`);
  const files = allTestFiles();
  for (const f of files) {
    const passes = [parallel.has(f), parallelDom.has(f), serial.has(f), side.has(f)].filter(Boolean).length;
    if (passes > 1) problems.push(`${f} runs in more than one of the parallel, parallel-dom, serial and side passes`);
    if (passes === 0) problems.push(`${f} runs in no pass (vitest never runs it)`);
  }
  for (const f of [...parallel, ...parallelDom, ...serial, ...side])
    if (!files.includes(f)) problems.push(`${f} is run by vitest but is not a *.test file`);
  return problems;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const problems = checkPasses();
  for (const p of problems) console.log(`!!! ${p}`);
  console.log(problems.length === 0 ? 'every test file is in exactly one pass' : `${problems.length} problem(s)`);
  process.exit(problems.length === 0 ? 0 : 1);
}
