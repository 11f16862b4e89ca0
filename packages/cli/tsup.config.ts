// The `kforge` bundle: the sdk (and zod) compiled in from source; ink, react, posthog-node and undici stay
// dependencies and load only in the commands that need them (code splitting keeps them out of --help).
import { readFileSync } from 'node:fs';
import { defineConfig, type Options } from 'tsup';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

/** Shared with the tests, which build the same bundle into a folder of their own. */
export const buildOptions = {
  entry: { bin: new URL('./src/bin.ts', import.meta.url).pathname },
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  sourcemap: true,
  splitting: true,
  tsconfig: new URL('./tsconfig.json', import.meta.url).pathname,
  noExternal: ['@kernelforge/sdk', 'zod'],
  // Named, not inferred from package.json, so a build started from another folder (the tests) is the same.
  external: ['commander', 'ink', 'react', 'posthog-node', 'undici'],
  define: { __KFORGE_VERSION__: JSON.stringify(pkg.version) },
  banner: { js: '#!/usr/bin/env node' },
} satisfies Options;

export default defineConfig({ ...buildOptions, clean: true });
