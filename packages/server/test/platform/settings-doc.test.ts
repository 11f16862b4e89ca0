// docs/operations.md lists every setting the server and the runner read, in tables generated from the config schema.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OPERATIONS_DOC, withGeneratedTables } from '../../scripts/settings-table.js';
import { EnvSchema } from '../../src/config.js';
import { RUNNER_SETTINGS, SERVER_SETTINGS } from '../../src/settings-doc.js';
import { repoRoot } from '../helpers/process.js';

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|tsx|mjs|js)$/.test(name) ? [path] : [];
  });
}

describe('the settings tables in docs/operations.md', () => {
  it('are exactly what pnpm settings-table generates', () => {
    const doc = readFileSync(OPERATIONS_DOC, 'utf8');
    expect(doc).toBe(withGeneratedTables(doc));
  });

  it('describe every variable of the server config schema, and nothing else', () => {
    expect(Object.keys(SERVER_SETTINGS).sort()).toEqual(Object.keys(EnvSchema.shape).sort());
  });

  it('cover every variable the server and runner code read from the environment outside the schema', () => {
    const documented = new Set([...Object.keys(EnvSchema.shape), ...Object.keys(RUNNER_SETTINGS)]);
    const read = new Set<string>();
    for (const pkg of ['server', 'runner'])
      for (const file of sources(join(repoRoot, 'packages', pkg, 'src')))
        for (const m of readFileSync(file, 'utf8').matchAll(/process\.env\.([A-Z][A-Z0-9_]+)/g))
          if (m[1]?.startsWith('KFORGE_') || m[1]?.endsWith('_URL')) read.add(m[1]);
    expect([...read].filter((name) => !documented.has(name))).toEqual([]);
  });
});
