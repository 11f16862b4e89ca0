// One vitest run for the whole workspace; packages resolve to their sources, so tests never wait on a build.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (pkg: string) => fileURLToPath(new URL(`./packages/${pkg}/src/index.ts`, import.meta.url));

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
    include: ['packages/*/test/**/*.test.{ts,tsx}', 'tests/**/*.test.{ts,tsx}'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    typecheck: { enabled: true, include: ['packages/*/test/**/*.test-d.ts'], tsconfig: './tsconfig.typetests.json' },
  },
});
