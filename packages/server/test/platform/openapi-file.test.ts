// The checked-in docs/openapi.json is what the schemas generate today (scripts/openapi.ts), so the published
// document never lags the API.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { repoRoot, SOURCES_TSCONFIG } from '../helpers/process.js';

test('docs/openapi.json equals the document the routes and schemas generate', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kforge-openapi-check-'));
  try {
    const out = join(dir, 'openapi.json');
    const res = spawnSync(process.execPath, ['--import', 'tsx', 'packages/server/scripts/openapi.ts', out], {
      cwd: repoRoot,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', TSX_TSCONFIG_PATH: SOURCES_TSCONFIG },
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(res.status, res.stderr).toBe(0);
    const checkedIn = readFileSync(join(repoRoot, 'docs', 'openapi.json'), 'utf8');
    // Regenerate with: TSX_TSCONFIG_PATH=packages/server/test/helpers/tsconfig.sources.json npx tsx packages/server/scripts/openapi.ts
    expect(
      checkedIn === readFileSync(out, 'utf8'),
      'docs/openapi.json is stale: regenerate it (docs/api.md says how)',
    ).toBe(true);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 120_000);
