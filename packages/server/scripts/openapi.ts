// Writes the OpenAPI document to docs/openapi.json: `npx tsx packages/server/scripts/openapi.ts [out]` from the repo root.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createApp } from '../src/app.js';
import { loadConfig, serverPackageRoot } from '../src/config.js';
import { createContext } from '../src/context.js';
import { buildOpenApiDocument } from '../src/http/openapi.js';

// Routes register their documentation as they are mounted, so build a real app over a throwaway in-memory database.
const dataDir = mkdtempSync(join(tmpdir(), 'kforge-openapi-'));
const out = resolve(process.argv[2] ?? join(serverPackageRoot(), '..', '..', 'docs', 'openapi.json'));
try {
  const ctx = await createContext(
    loadConfig({ DATABASE_URL: 'memory://', KFORGE_DATA_DIR: dataDir, KFORGE_LOG_LEVEL: 'warn' }),
  );
  createApp(ctx);
  writeFileSync(out, `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`);
  await ctx.close();
  console.log(`wrote ${out}`);
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
