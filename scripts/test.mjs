// The whole test suite: type-check, every test on the embedded database, then the server suite on a real
// Postgres. Ends with one plain line `N passed, N failed` computed from vitest's JSON reports.
//   node scripts/test.mjs [vitest filters...]     KFORGE_TEST_POSTGRES=0 skips the Postgres pass (said loudly)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { startPostgres } from './postgres.mjs';

const filters = process.argv.slice(2);
mkdirSync('reports', { recursive: true });
let passed = 0;
let failed = 0;
let skipped = 0;
const failures = [];

function step(name, cmd, args, env = {}) {
  console.log(`\n=== ${name}: ${cmd} ${args.join(' ')}`);
  const res = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  return res.status === 0;
}

function vitest(name, report, args, env) {
  rmSync(report, { force: true });
  const ok = step(
    name,
    'pnpm',
    ['exec', 'vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile=${report}`, ...args],
    env,
  );
  if (!existsSync(report)) {
    console.log(`${name}: vitest wrote no report`);
    failed++;
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
    if (file.status === 'failed' && file.assertionResults.length === 0) {
      failures.push(`${name}: ${where}: ${firstLine(file.message)}`);
    }
    for (const t of file.assertionResults) {
      if (t.status === 'failed')
        failures.push(`${name}: ${where} > ${t.fullName}: ${firstLine(t.failureMessages?.[0])}`);
    }
  }
  if (!ok && r.numFailedTests === 0 && brokenFiles.length === 0) failed++;
}

function firstLine(text) {
  const line =
    String(text ?? '')
      .split('\n')
      .find((l) => l.trim() !== '') ?? '';
  return line.length > 300 ? `${line.slice(0, 300)}...` : line;
}

// Tests that spawn real processes (a server killed with kill -9, replicas, the CLI) run the packages'
// built output, so build first: a stale dist would test yesterday's code.
if (step('build', 'pnpm', ['-r', '--workspace-concurrency=1', 'build'])) passed++;
else {
  failed++;
  failures.push('build');
}

if (filters.length === 0) {
  if (step('type-check', 'pnpm', ['-r', 'typecheck'])) passed++;
  else {
    failed++;
    failures.push('type-check');
  }
}

vitest('tests (embedded PGlite)', 'reports/vitest-pglite.json', filters, {});

const serverFilters = filters.length === 0 ? ['packages/server'] : filters.filter((f) => f.includes('server'));
if (serverFilters.length > 0) {
  if (process.env.KFORGE_TEST_POSTGRES === '0') {
    console.log('\n!!! the Postgres pass was NOT run (KFORGE_TEST_POSTGRES=0)');
  } else {
    let pg;
    try {
      pg = process.env.KFORGE_TEST_DATABASE_URL
        ? { url: process.env.KFORGE_TEST_DATABASE_URL, stop() {} }
        : await startPostgres();
      vitest('server tests (Postgres)', 'reports/vitest-postgres.json', serverFilters, {
        KFORGE_TEST_DATABASE_URL: pg.url,
      });
    } catch (error) {
      console.log(`Postgres pass failed to start: ${error.message}`);
      failed++;
    } finally {
      pg?.stop();
    }
  }
}

// CI shows only the end of the log: name every failure just above the summary line.
if (failures.length > 0) {
  console.log(`\nFailed (${failures.length}):`);
  for (const f of failures) console.log(`  - ${f}`);
}
console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed === 0 ? 0 : 1);
