// One vitest config for the whole workspace; packages resolve to their sources, so tests never wait on a build.
// Four projects (scripts/test-passes.mjs says which file goes where): `parallel`, every file that does not evaluate
// kernels, on several workers, with `parallel-dom` (those of them that run in happy-dom) after it on the same workers,
// and beside them `side`, files that mostly wait, one at a time; then `serial`, the files that evaluate, one at a time.
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { ownEnvironmentFiles, SERIAL, SIDE, TEST_FILES, TYPE_TEST_FILES } from './scripts/test-passes.mjs';

const src = (pkg: string) => fileURLToPath(new URL(`./packages/${pkg}/src/index.ts`, import.meta.url));

// One worker per core (at least two: many files wait on servers and child processes); scripts/test.mjs runs one more
// beside them (the Postgres pass). More than that left the heavier files past their timeouts on 2 cores.
const parallelWorkers = Math.max(2, availableParallelism());
// The parallel pass's files with an environment of their own (happy-dom): a project apart (test-passes.mjs says why).
const domFiles = ownEnvironmentFiles();

export default defineConfig({
  resolve: {
    alias: [
      {
        find: /^@kernelforge\/sdk\/node$/,
        replacement: fileURLToPath(new URL('./packages/sdk/src/node.ts', import.meta.url)),
      },
      {
        find: /^@kernelforge\/sdk\/internal$/,
        replacement: fileURLToPath(new URL('./packages/sdk/src/internal/index.ts', import.meta.url)),
      },
      { find: /^@kernelforge\/sdk$/, replacement: src('sdk') },
      { find: /^@kernelforge\/runner$/, replacement: src('runner') },
      { find: /^@kernelforge\/server$/, replacement: src('server') },
    ],
  },
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: {
          name: 'parallel',
          include: TEST_FILES,
          exclude: ['**/node_modules/**', ...SERIAL, ...SIDE, ...domFiles],
          maxWorkers: parallelWorkers,
          // Each worker runs its files one after another in one process and module graph, instead of a fresh process
          // per file: the pass took 474 cpu-s isolated and 330 shared (2 cores, 2026-11-28), the difference being
          // 112 imports of the server's sources. The files restore what they change in process.env, and the one
          // that depends on a module's first import (cli/test/screens.test.tsx, Ink's CI check) is the only
          // importer of that module in this pass.
          isolate: false,
          typecheck: { enabled: true, include: TYPE_TEST_FILES, tsconfig: './tsconfig.typetests.json' },
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          // Run with `parallel` (same workers, same group), after its files (vitest orders projects by name), each
          // file in a process of its own, as they were written for.
          name: 'parallel-dom',
          include: domFiles,
          maxWorkers: parallelWorkers,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          // Files that mostly wait (scripts/test-passes.mjs SIDE): one at a time, beside the parallel pass.
          name: 'side',
          include: SIDE,
          fileParallelism: false,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'serial',
          include: SERIAL,
          fileParallelism: false,
          // One process per pass, as in `parallel`; here it also keeps the runner's caches (toolchain probes, the
          // device, built harnesses) from one file to the next, as a runner keeps them from one job to the next.
          isolate: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
