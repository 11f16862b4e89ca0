// Vite build of the web app: React, Tailwind, and the sdk resolved to its sources (never its dist). The build also
// writes brotli and gzip copies of its text files (the server sends them as they are) and routes.json, the
// route table's patterns, so the server answers 404 for a path no page takes.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const COMPRESSIBLE = new Set(['.js', '.mjs', '.css', '.html', '.svg', '.json', '.txt', '.map', '.wasm']);

function* filesUnder(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(path);
    else if (entry.isFile()) yield path;
  }
}

/** Writes `file.br` and `file.gz` beside each text file of 1 KB or more, when they are smaller. */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'kforge-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    closeBundle() {
      for (const file of filesUnder(outDir)) {
        if (!COMPRESSIBLE.has(extname(file)) || statSync(file).size < 1024) continue;
        const raw = readFileSync(file);
        const br = brotliCompressSync(raw, {
          params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length },
        });
        const gz = gzipSync(raw, { level: 9 });
        if (br.length < raw.length) writeFileSync(`${file}.br`, br);
        if (gz.length < raw.length) writeFileSync(`${file}.gz`, gz);
      }
    },
  };
}

/** The route patterns of src/routes.tsx (`patterns: ['/a', '/a/']`), read from its source. */
export function routePatterns(source: string): string[] {
  const patterns: string[] = [];
  for (const match of source.matchAll(/patterns:\s*\[([^\]]*)\]/g)) {
    for (const literal of (match[1] ?? '').matchAll(/'([^']*)'/g)) patterns.push(literal[1] ?? '');
  }
  return patterns;
}

function routesManifest(): Plugin {
  return {
    name: 'kforge-routes-manifest',
    apply: 'build',
    generateBundle() {
      const source = readFileSync(fileURLToPath(new URL('./src/routes.tsx', import.meta.url)), 'utf8');
      this.emitFile({ type: 'asset', fileName: 'routes.json', source: JSON.stringify(routePatterns(source)) });
    },
  };
}

export default defineConfig({
  plugins: [react(), tailwindcss(), routesManifest(), precompress()],
  resolve: {
    alias: [
      {
        find: /^@kernelforge\/sdk$/,
        replacement: fileURLToPath(new URL('../sdk/src/index.ts', import.meta.url)),
      },
    ],
  },
  build: { target: 'es2022', sourcemap: false, chunkSizeWarningLimit: 600 },
  server: { proxy: { '/api': 'http://localhost:8000', '/auth': 'http://localhost:8000' } },
});
