// The import direction of the server, the runner and the web (docs/architecture.md, "Import layers"):
// scripts/check-imports.mjs over each src/, and over small trees with the faults it must catch.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, test } from 'vitest';
import {
  checkAll,
  checkImports,
  checkPackages,
  LAYERED_PACKAGES,
  RUNNER_LAYERS,
  RUNNER_SIBLINGS,
  SERVER_LAYERS,
  WEB_LAYERS,
} from '../../../../scripts/check-imports.mjs';

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
    'services/a.ts': "import { b } from '../domain/b.js';\nexport const a = () => b;\n",
    // Upward: the domain may not import services; and with services/a.ts a cycle.
    'domain/b.ts': "import {\n  a,\n} from '../services/a.js';\nexport const b = 1;\nexport const c = a;\n",
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
      'domain/b.ts: upward import of services/a.ts (domain may not import services)',
      'jobs/q.ts: imports context.ts for a value; outside the entry layer use `import type`',
      'db/z.ts: imports ./gone.js, which is not a file of src/',
      'extras/e.ts: extras is in no layer',
    ]),
  );
  expect(cycles).toEqual([['domain/b.ts', 'services/a.ts']]);
  expect(problems).toContain('import cycle: domain/b.ts -> services/a.ts -> domain/b.ts');
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

test('the runner and the web import only downward too, and every layer entry of theirs exists', () => {
  const results = checkAll();
  expect(results.map((r) => r.name)).toEqual(['server', 'runner', 'web']);
  for (const r of results) {
    expect(r.problems, r.name).toEqual([]);
    expect(r.files, r.name).toBeGreaterThan(50);
  }
  const packages = fileURLToPath(new URL('../../..', import.meta.url));
  for (const [name, { layers }] of Object.entries(LAYERED_PACKAGES))
    for (const unit of layers.flat())
      expect(existsSync(join(packages, name, 'src', unit)), `${name}: ${unit}`).toBe(true);
});

test('web: .tsx resolves, assets are not code, and a hook importing a component is upward', () => {
  const dir = tree({
    'main.tsx': "import './index.css';\nimport { App } from './App';\nApp;\n",
    'App.tsx': "import { Page } from './pages/Page';\nexport const App = Page;\n",
    'pages/Page.tsx':
      "import { Table } from '../components/Table';\nimport logo from '../logo.svg';\nexport const Page = [Table, logo];\n",
    'components/Table.tsx': "import { useRows } from '../hooks/useRows';\nexport const Table = useRows;\n",
    'hooks/useRows.ts':
      "import { Table } from '../components/Table';\nimport { api } from '../lib/client';\nexport const useRows = [api, Table];\n",
    'lib/client.ts': 'export const api = 1;\n',
  });
  const { problems } = checkImports(dir, WEB_LAYERS, null);
  expect(problems).toEqual([
    'hooks/useRows.ts: upward import of components/Table.tsx (hooks may not import components)',
    'import cycle: components/Table.tsx -> hooks/useRows.ts -> components/Table.tsx',
  ]);
});

test('runner: a backend imports the shared layers only, never another backend, and nothing shared imports one', () => {
  const dir = tree({
    'index.ts': "export { evaluate } from './evaluate/evaluate.js';\n",
    'evaluate/evaluate.ts': "import { BACKENDS } from '../backends/index.js';\nexport const evaluate = BACKENDS;\n",
    'backends/index.ts':
      "import { c } from './c-abi/index.js';\nimport { t } from './torch/index.js';\nexport const BACKENDS = [c, t];\n",
    'backends/c-abi/index.ts': "import { judge } from '../../evaluate/judge.js';\nexport const c = judge;\n",
    // One backend reaching into another's folder: refused even though both sit in one layer.
    'backends/torch/index.ts':
      "import { judge } from '../../evaluate/judge.js';\nimport { c } from '../c-abi/index.js';\nexport const t = [judge, c];\n",
    // A shared file importing a backend: an upward import.
    'evaluate/judge.ts': "import { settings } from '../settings.js';\nexport const judge = settings;\n",
    'devices/cpu.ts': "import { t } from '../backends/torch/index.js';\nexport const cpu = t;\n",
    'settings.ts': 'export const settings = 1;\n',
  });
  expect(checkImports(dir, RUNNER_LAYERS, null, [], RUNNER_SIBLINGS).problems).toEqual([
    'backends/torch/index.ts: imports backends/c-abi/index.ts (backends/torch may not import its sibling backends/c-abi)',
    'devices/cpu.ts: upward import of backends/torch/index.ts (devices may not import backends)',
  ]);
  expect(LAYERED_PACKAGES.runner.siblings).toEqual(['backends']);
});

test('runner: a layer entry may name one file inside a folder, and an allowed cycle is the only one let through', () => {
  const dir = tree({
    'index.ts': "export { run } from './evaluate/run.js';\n",
    'evaluate/run.ts':
      "import { spawnIt } from '../sandbox/spawn.js';\nimport { share } from '../sandbox/job-sandbox.js';\nexport const run = [spawnIt, share];\n",
    'evaluate/a.ts': "import { b } from './b.js';\nexport const a = b;\n",
    'evaluate/b.ts': "import { a } from './a.js';\nexport const b = a;\n",
    'harness/build.ts': "import { spawnIt } from '../sandbox/spawn.js';\nexport const build = spawnIt;\n",
    // With the evaluation (RUNNER_LAYERS names it): it may import the harness; the rest of sandbox/ may not.
    'sandbox/job-sandbox.ts': "import { build } from '../harness/build.js';\nexport const share = build;\n",
    'sandbox/spawn.ts': "import { settings } from '../settings.js';\nexport const spawnIt = settings;\n",
    'sandbox/bwrap.ts': "import { build } from '../harness/build.js';\nexport const wrap = build;\n",
    'settings.ts': 'export const settings = 1;\n',
  });
  expect(checkImports(dir, RUNNER_LAYERS, null, [['evaluate/b.ts', 'evaluate/a.ts']]).problems).toEqual([
    'sandbox/bwrap.ts: upward import of harness/build.ts (sandbox may not import harness)',
  ]);
  expect(checkImports(dir, RUNNER_LAYERS, null).problems).toContain(
    'import cycle: evaluate/a.ts -> evaluate/b.ts -> evaluate/a.ts',
  );
});
