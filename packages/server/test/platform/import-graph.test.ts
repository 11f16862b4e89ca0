// The server's import direction (docs/architecture.md, "Inside the server"): scripts/check-imports.mjs over src/,
// and over a small tree with the faults it must catch.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, test } from 'vitest';
import { checkImports, checkPackages, SERVER_LAYERS } from '../../../../scripts/check-imports.mjs';

const src = fileURLToPath(new URL('../../src', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'kforge-imports-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(scratch, 'src-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

test('packages/server/src imports only downward, never its composition root for a value, and has no cycle', () => {
  const result = checkImports(src);
  expect(result.problems).toEqual([]);
  expect(result.files).toBeGreaterThan(100);
  expect(result.edges).toBeGreaterThan(300);
  // The layer table names what is there: no layer for a folder that is gone.
  for (const unit of SERVER_LAYERS.flat()) expect(existsSync(join(src, unit)), unit).toBe(true);
});

test('an upward import, a value import of the context, a missing file, an unlayered folder and a cycle are caught', () => {
  const dir = tree({
    'context.ts':
      "import { Catalogue } from './services/catalogue.js';\nexport interface AppContext { c: Catalogue }\n",
    'services/catalogue.ts': 'export class Catalogue {}\n',
    'services/a.ts': "import { b } from '../sessions/b.js';\nexport const a = () => b;\n",
    // Upward: sessions may not import services; and with services/a.ts a cycle.
    'sessions/b.ts': "import {\n  a,\n} from '../services/a.js';\nexport const b = 1;\nexport const c = a;\n",
    // The context for its type is fine; for a value (outside the entry layer) it is not.
    'routes/r.ts': "import type { AppContext } from '../context.js';\nexport type R = AppContext;\n",
    'jobs/q.ts':
      "import { type AppContext, build } from '../context.js';\nexport { build };\nexport type Q = AppContext;\n",
    'db/x.ts': "import { y } from './y.js';\nexport const x = y;\n",
    'db/y.ts': "export const y = 1;\n// import { r } from '../routes/r.js';\n",
    'db/z.ts': "export { gone } from './gone.js';\n",
    'extras/e.ts': 'export const e = 1;\n',
    'main.ts': "import { build } from './context.js';\nbuild;\n",
  });
  const { problems, cycles } = checkImports(dir);
  expect(problems).toEqual(
    expect.arrayContaining([
      'sessions/b.ts: upward import of services/a.ts (sessions may not import services)',
      'jobs/q.ts: imports context.ts for a value; outside the entry layer use `import type`',
      'db/z.ts: imports ./gone.js, which is not a file of src/',
      'extras/e.ts: extras is in no layer',
    ]),
  );
  expect(cycles).toEqual([['services/a.ts', 'sessions/b.ts']]);
  expect(problems).toContain('import cycle: services/a.ts -> sessions/b.ts -> services/a.ts');
  // Nothing else: the commented-out import, the type import of the context, downward and same-layer imports pass.
  expect(problems).toHaveLength(5);
});

test('packages import only downward: everything rests on the sdk, the runner never imports the server', () => {
  expect(checkPackages()).toEqual([]);
  const dir = tree({
    'sdk/src/index.ts': 'export const x = 1;\n',
    'runner/src/a.ts':
      "import { x } from '@kernelforge/sdk';\nimport type { S } from '@kernelforge/server';\nexport const a = x;\n",
    'web/src/b.tsx': "import { x } from '@kernelforge/sdk/internal';\nconst c = await import('@kernelforge/cli');\n",
  });
  expect(checkPackages(dir, { sdk: [], runner: ['sdk'], web: ['sdk'] })).toEqual([
    'runner/src/a.ts: runner may not import @kernelforge/server',
    'web/src/b.tsx: web may not import @kernelforge/cli',
  ]);
});
