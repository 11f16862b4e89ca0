// The whole test suite: which file runs in which pass, the build with the type-check beside it, then every test on
// the embedded database and the database files again on a real Postgres, in two lanes side by side (the files that
// do not evaluate kernels in parallel, then the product's evaluating files; beside them the Postgres files, the bench
// smoke runs and the runner's timing files; then each lane takes parts of the evaluating Postgres files until none
// is left). Ends with each pass's time and what the machine did meanwhile, the slowest files, and one plain line
// `N passed, N failed` computed from vitest's JSON reports; every failure is named just above it.
//   node scripts/test.mjs [vitest filters...]     KFORGE_TEST_POSTGRES=0 skips the Postgres pass (said loudly)
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startPostgres } from './postgres.mjs';
import { checkPasses, POSTGRES, SERIAL, SERIAL_PRODUCT, SERIAL_TIMING, SIDE } from './test-passes.mjs';

const filters = process.argv.slice(2);
// Every process of this run (test servers, runners, CLIs) shares one start-up peaks run of this machine instead of
// each making its own: about 1.7 cpu-s and 4 s under the timing lock each, some 70 a run (devices/cpu.ts). Results
// are still judged against peaks measured again on a quiet machine where they need it (remeasure.ts).
const peaksShare = join(tmpdir(), `kforge-test-peaks-${process.pid}.json`);
process.env.KFORGE_CPU_PEAKS_SHARE ??= peaksShare;
// Likewise one folder of built C harnesses for the run (c-abi/harness/build.ts): each test server and test file has a
// work folder of its own, and each had built every problem's harness again (about 3 cpu-s of gcc each time).
const harnessShare = join(tmpdir(), `kforge-test-harness-${process.pid}`);
process.env.KFORGE_HARNESS_CACHE_SHARE ??= harnessShare;
process.on('exit', () => {
  rmSync(peaksShare, { force: true });
  rmSync(harnessShare, { recursive: true, force: true });
});
mkdirSync('reports', { recursive: true });
let passed = 0;
let failed = 0;
let skipped = 0;
const failures = [];
/** [pass name, file, seconds] for every file of every pass. */
const durations = [];

/** Wall time of each step and pass, printed with the slowest files (with what the machine did meanwhile). */
const stepTimes = [];

/**
 * What the machine did while the suite ran, sampled once a second: busy cores (/proc/stat) and whether any runner
 * held a host-wide timing lock (an flock on a kforge-timing-*.lock file, from /proc/locks). Each step reports its
 * means, which says where its time went: a step near every core busy is bound by work, one whose timing lock was
 * held most of the time waits on timed phases (those never overlap), and one with neither mostly waits.
 */
const machine = (() => {
  const cores = availableParallelism();
  const lockDir = process.env.KFORGE_TIMING_LOCK_DIR ?? (existsSync('/run/lock') ? '/run/lock' : tmpdir());
  const totals = { samples: 0, busy: 0, locked: 0 };
  let last = null;
  const stat = () => {
    try {
      const v = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0].trim().split(/\s+/).slice(1).map(Number);
      const busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
      return { busy, total: v.reduce((a, x) => a + (Number.isFinite(x) ? x : 0), 0) - (v[8] ?? 0) - (v[9] ?? 0) };
    } catch {
      return null;
    }
  };
  const lockHeld = () => {
    try {
      const inodes = new Set();
      for (const f of readdirSync(lockDir))
        if (/^kforge-timing-.*\.lock$/.test(f)) inodes.add(String(statSync(join(lockDir, f)).ino));
      if (inodes.size === 0) return false;
      // "1: FLOCK  ADVISORY  WRITE 1234 08:01:5678 0 EOF"; waiters' lines have "->" after the number.
      return readFileSync('/proc/locks', 'utf8')
        .split('\n')
        .some((l) => !l.includes('->') && inodes.has(l.trim().split(/\s+/)[5]?.split(':')[2]));
    } catch {
      return false;
    }
  };
  // Every sample, for a look at where a run's time went (which files ran while cores stood idle): seconds since the
  // start, busy cores, whether a timing lock was held.
  const series = createWriteStream('reports/machine.tsv');
  series.write('seconds\tbusy_cores\tlock_held\n');
  const t0 = Date.now();
  const timer = setInterval(() => {
    const now = stat();
    if (now && last && now.total > last.total) {
      const busy = ((now.busy - last.busy) / (now.total - last.total)) * cores;
      const locked = lockHeld();
      totals.samples += 1;
      totals.busy += busy;
      totals.locked += locked ? 1 : 0;
      series.write(`${((Date.now() - t0) / 1000).toFixed(1)}\t${busy.toFixed(2)}\t${locked ? 1 : 0}\n`);
    }
    last = now;
  }, 1000);
  timer.unref();
  return {
    cores,
    snapshot: () => ({ ...totals }),
    /** Means since a snapshot: busy cores and the share of time a timing lock was held (null: too short to say). */
    since(a) {
      const n = totals.samples - a.samples;
      return n < 3 ? null : { busy: (totals.busy - a.busy) / n, locked: (totals.locked - a.locked) / n };
    },
  };
})();

/** " (busy 1.6 of 2 cores, a timing lock held 72% of the time)" for a step that began at snapshot `a`. */
function usage(a) {
  const u = machine.since(a);
  return u
    ? ` (busy ${u.busy.toFixed(1)} of ${machine.cores} cores, a timing lock held ${Math.round(u.locked * 100)}% of the time)`
    : '';
}

/** A step in the foreground (its output inherited); resolves to its success. */
function step(name, cmd, args, env = {}) {
  console.log(`\n=== ${name}: ${cmd} ${args.join(' ')}`);
  const t0 = Date.now();
  const child = spawn(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  return new Promise((done) => {
    child.on('close', (code) => {
      stepTimes.push([name, (Date.now() - t0) / 1000, '']);
      done(code === 0);
    });
  });
}

/** A step run beside the test passes: its output goes to `log`, printed whole when it ends; resolves to its success. */
function background(name, cmd, args, log) {
  console.log(
    `\n--- started at ${((Date.now() - started) / 1000).toFixed(0)} s: ${name} (its output follows when it ends)`,
  );
  const t0 = Date.now();
  const s0 = machine.snapshot();
  const out = createWriteStream(log);
  const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.pipe(out, { end: false });
  child.stderr.pipe(out, { end: false });
  return new Promise((done) => {
    child.on('close', async (code) => {
      await new Promise((flushed) => out.end(flushed));
      stepTimes.push([name, (Date.now() - t0) / 1000, usage(s0)]);
      console.log(`\n=== ${name} (ended at ${((Date.now() - started) / 1000).toFixed(0)} s): ${cmd} ${args.join(' ')}`);
      process.stdout.write(readFileSync(log, 'utf8'));
      count(name, code === 0);
      done(code === 0);
    });
  });
}

function count(name, ok) {
  if (ok) passed++;
  else {
    failed++;
    failures.push(name);
  }
}

/**
 * Runs one vitest pass and counts its report. With `log`, its output goes to that file, printed whole once the pass
 * has ended (passes run side by side: their lines would interleave); a line says when it starts.
 */
function vitest(name, report, args, env = {}, log = undefined) {
  rmSync(report, { force: true });
  const full = ['exec', 'vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile=${report}`, ...args];
  const at = () => `${((Date.now() - started) / 1000).toFixed(0)} s`;
  console.log(
    log
      ? `\n--- started at ${at()}: ${name} (its output follows when it ends)`
      : `\n=== ${name}: pnpm ${full.join(' ')}`,
  );
  const t0 = Date.now();
  const s0 = machine.snapshot();
  const child = spawn('pnpm', full, {
    stdio: log ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    env: { ...process.env, ...env },
  });
  // Both streams into one file, ended once the child has closed both (piped with their own end, the first to end
  // would end the file under the other).
  const out = log ? createWriteStream(log) : null;
  if (out) {
    child.stdout.pipe(out, { end: false });
    child.stderr.pipe(out, { end: false });
  }
  return new Promise((done) => {
    child.on('close', async (code) => {
      if (out) await new Promise((flushed) => out.end(flushed));
      stepTimes.push([name, (Date.now() - t0) / 1000, usage(s0)]);
      if (log) {
        console.log(`\n=== ${name} (ended at ${at()}): pnpm ${full.join(' ')}`);
        process.stdout.write(readFileSync(log, 'utf8'));
      }
      countReport(name, report, code === 0);
      done();
    });
  });
}

function countReport(name, report, ok) {
  if (!existsSync(report)) {
    console.log(`${name}: vitest wrote no report`);
    failed++;
    failures.push(`${name}: vitest wrote no report`);
    return;
  }
  const r = JSON.parse(readFileSync(report, 'utf8'));
  passed += r.numPassedTests;
  failed += r.numFailedTests;
  skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  // A file that fails to load has no tests to count: count it as a failure rather than lose it.
  const brokenFiles = (r.testResults ?? []).filter((t) => t.status === 'failed' && t.assertionResults.length === 0);
  failed += brokenFiles.length;
  for (const file of r.testResults ?? []) {
    const where = file.name.replace(`${process.cwd()}/`, '');
    if (file.startTime && file.endTime) durations.push([name, where, (file.endTime - file.startTime) / 1000]);
    if (file.status === 'failed' && file.assertionResults.length === 0) {
      failures.push(`${name}: ${where}: ${firstLine(file.message)}`);
    }
    for (const t of file.assertionResults) {
      if (t.status === 'failed')
        failures.push(`${name}: ${where} > ${t.fullName}: ${firstLine(t.failureMessages?.[0])}`);
    }
  }
  if (!ok && r.numFailedTests === 0 && brokenFiles.length === 0) {
    failed++;
    failures.push(`${name}: vitest exited with an error (see its output above)`);
  }
}

function firstLine(text) {
  const line =
    String(text ?? '')
      .split('\n')
      .find((l) => l.trim() !== '') ?? '';
  return line.length > 300 ? `${line.slice(0, 300)}...` : line;
}

/** Vitest's own filter rule: a file is selected when its path contains one of the filters. */
const selected = (files) => (filters.length === 0 ? files : files.filter((f) => filters.some((x) => f.includes(x))));

const started = Date.now();
const startedUse = machine.snapshot();

// A test file in neither pass would never run, one in both would run twice: say so before anything else.
{
  console.log('\n=== test passes: every test file in exactly one pass (scripts/test-passes.mjs)');
  let problems;
  try {
    problems = checkPasses();
  } catch (error) {
    problems = [String(error.message ?? error)];
  }
  for (const p of problems) console.log(`!!! ${p}`);
  count('test passes: every test file in exactly one pass', problems.length === 0);
}

// Tests that spawn real processes (a server killed with kill -9, replicas, the CLI) run the packages' built output,
// so build first: a stale dist would test yesterday's code. CI builds here, once.
// The type-check reads the sources, not the build: it runs beside the build and the test passes (its output is
// printed when it ends). After the build, it held every lane back about 45 s on 2 cores. `pnpm typecheck` checks
// the four Node packages as one program (tsconfig.check.json) and the web app on its own: 42 cpu-s against 84 for
// each package's own (`pnpm -r typecheck`), which checked the sdk's sources five times over.
const typeCheck =
  filters.length === 0 ? background('type-check', 'pnpm', ['typecheck'], 'reports/type-check.log') : null;
const built = await step('build', 'pnpm', ['-r', '--workspace-concurrency=1', 'build']);
count('build', built);
// The CLI's tests run the bundle just built instead of building their own copy per test file; tests that start
// kforge-server as a process run its bundle too (no transpiling the sources at every start).
// Browser tests save no screenshots here unless asked (KFORGE_E2E_SCREENSHOTS=1): no one looks at them in a full run.
const shots = { KFORGE_E2E_SCREENSHOTS: process.env.KFORGE_E2E_SCREENSHOTS ?? '0' };
const cliEnv = built
  ? {
      ...shots,
      KFORGE_CLI_BIN: resolve('packages/cli/dist/bin.js'),
      KFORGE_SERVER_BIN: resolve('packages/server/dist/main.js'),
    }
  : shots;

// .ci/run installs the system's packages (a browser, Postgres, PyTorch, the sandbox) in the background while the
// workspace installs, lint runs and this builds: KFORGE_SETUP_WAIT names the status file it writes when done (its
// output in <that file>.log). The tests need those packages: wait for them here.
if (process.env.KFORGE_SETUP_WAIT) {
  const statusFile = process.env.KFORGE_SETUP_WAIT;
  const t0 = Date.now();
  while (!existsSync(statusFile) || readFileSync(statusFile, 'utf8').trim() === '')
    await new Promise((r) => setTimeout(r, 500));
  const status = readFileSync(statusFile, 'utf8').trim();
  const log = existsSync(`${statusFile}.log`) ? readFileSync(`${statusFile}.log`, 'utf8') : '';
  console.log(
    `\n=== set-up of the system's packages (waited ${((Date.now() - t0) / 1000).toFixed(0)} s for it): exit ${status}`,
  );
  if (log) process.stdout.write(log);
  count("set-up of the system's packages", status === '0');
}

// The Postgres pass: the server files that exercise the database layer, on a throwaway server.
const pgFiles = selected(POSTGRES);
let pg;
if (pgFiles.length > 0) {
  if (process.env.KFORGE_TEST_POSTGRES === '0')
    console.log('\n!!! the Postgres pass was NOT run (KFORGE_TEST_POSTGRES=0)');
  else {
    try {
      pg = process.env.KFORGE_TEST_DATABASE_URL
        ? { url: process.env.KFORGE_TEST_DATABASE_URL, stop() {} }
        : await startPostgres();
    } catch (error) {
      console.log(`\nPostgres pass failed to start: ${error.message}`);
      count('Postgres pass: the server did not start', false);
    }
  }
}
// Stopped or interrupted, the throwaway Postgres server goes too (pg_ctl runs it detached from this process).
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'])
  process.once(signal, () => {
    pg?.stop();
    process.exit(130);
  });
const pgEnv = pg ? { ...cliEnv, KFORGE_TEST_DATABASE_URL: pg.url } : {};
const pgParallel = pgFiles.filter((f) => !SERIAL.includes(f));
const pgSerial = pgFiles.filter((f) => SERIAL.includes(f));
const common = ['--passWithNoTests', ...(filters.length ? filters : [])];

try {
  // Two lanes, each one vitest pass after another, so no core waits for a pass it does not need (the type-check
  // runs beside them until it ends):
  //  - the files that do not evaluate kernels, on several workers (neither they nor the next lane's first two
  //    passes hold the timing lock), then the product's evaluating files (server, CLI, browser) on PGlite;
  //  - beside it, the database files on Postgres that do not evaluate (one worker: more left the cores too busy for
  //    the heavier files' timeouts on 2 cores), then the files that mostly wait (SIDE: bench smoke runs of servers,
  //    the CLI and a browser), then the runner's timing files.
  //    The timing files start as soon as the lane is free instead of after the parallel pass (they assert what holds
  //    under any load: the lane beside them is load).
  //  Evaluating files run one at a time in each lane, and every timed phase takes the host's timing lock, so timings
  //  never overlap; compiling, checking and waiting do. Each pass writes its output to a log printed when it ends, so
  //  passes never interleave their lines. The evaluating files on Postgres are a queue of three parts that each lane
  //  takes from once its own passes have ended, so the lane that ends first starts them while the other still runs:
  //  as a lane of their own after the first lane ended, they ran alone at the end, about 110 s on one core of two.
  const pgParts = pg ? [0, 1, 2].map((k) => pgSerial.filter((_, i) => i % 3 === k)).filter((p) => p.length > 0) : [];
  let pgTaken = 0;
  const pgSerialPasses = async () => {
    while (pgTaken < pgParts.length) {
      const part = ++pgTaken;
      await vitest(
        `evaluation server tests (Postgres, ${part} of ${pgParts.length})`,
        `reports/vitest-postgres-serial-${part}.json`,
        ['--project', 'serial', '--passWithNoTests', ...pgParts[part - 1]],
        pgEnv,
        `reports/vitest-postgres-serial-${part}.log`,
      );
    }
  };
  const sideFiles = selected(SIDE);
  const timingFiles = selected(SERIAL_TIMING);
  const productFiles = selected(SERIAL_PRODUCT);
  const productLane = (async () => {
    await vitest(
      'tests (embedded PGlite)',
      'reports/vitest-pglite.json',
      ['--project', 'parallel', '--project', 'parallel-dom', ...common],
      cliEnv,
      'reports/vitest-pglite.log',
    );
    if (productFiles.length > 0)
      await vitest(
        'evaluation tests: product, CLI and browser (embedded PGlite)',
        'reports/vitest-pglite-product.json',
        ['--project', 'serial', '--passWithNoTests', ...productFiles],
        cliEnv,
        'reports/vitest-pglite-product.log',
      );
    await pgSerialPasses();
  })();
  const timingLane = (async () => {
    if (pg && pgParallel.length > 0)
      await vitest(
        'server tests (Postgres)',
        'reports/vitest-postgres.json',
        ['--project', 'parallel', '--maxWorkers=1', '--passWithNoTests', ...pgParallel],
        pgEnv,
        'reports/vitest-postgres.log',
      );
    if (sideFiles.length > 0)
      await vitest(
        'side tests (waiting on servers and a browser)',
        'reports/vitest-side.json',
        ['--project', 'side', '--passWithNoTests', ...sideFiles],
        cliEnv,
        'reports/vitest-side.log',
      );
    if (timingFiles.length > 0)
      await vitest(
        'evaluation tests: runner and timing (embedded PGlite)',
        'reports/vitest-pglite-serial.json',
        ['--project', 'serial', '--passWithNoTests', ...timingFiles],
        cliEnv,
        'reports/vitest-pglite-serial.log',
      );
    await pgSerialPasses();
  })();
  await Promise.all([productLane, timingLane, typeCheck]);
} finally {
  pg?.stop();
}

// Regressions in speed show here: each step's time, and the slowest files of this run, whatever pass they ran in.
console.log('\nSteps:');
for (const [name, s, use] of stepTimes) console.log(`  ${s.toFixed(1).padStart(7)} s  ${name}${use}`);
if (durations.length > 0) {
  console.log(
    `\nSlowest test files (of ${durations.length}; the whole run took ${((Date.now() - started) / 1000).toFixed(0)} s${usage(startedUse)}):`,
  );
  for (const [name, file, s] of durations.sort((a, b) => b[2] - a[2]).slice(0, 15))
    console.log(`  ${s.toFixed(1).padStart(7)} s  ${file}  (${name})`);
}

// CI shows only the end of the log: name every failure just above the summary line.
if (failures.length > 0) {
  console.log(`\nFailed (${failures.length}):`);
  for (const f of failures) console.log(`  - ${f}`);
}
console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed === 0 ? 0 : 1);
