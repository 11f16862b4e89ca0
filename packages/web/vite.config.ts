// Vite build of the web app: React, Tailwind, and the sdk resolved to its sources (never its dist).
import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react(), tailwindcss()],
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
