// The import direction, checked: walks the relative imports of the server's, the runner's and the web's src/**/*.ts(x)
// (a regex over each file; no compiler needed) and reports every upward import and every import cycle, and which
// workspace packages each package imports. docs/architecture.md states all three; `node scripts/check-imports.mjs`
// exits 1 on a problem.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * The server's layers, top first: a file may import its own layer and the layers below it, never one above.
 * A layer is a top-level folder of src/ or a file directly in it.
 */
export const SERVER_LAYERS = [
  // Entry points and wiring: the process, the Hono app, background work, CLI subcommands.
  ['main.ts', 'index.ts', 'server.ts', 'app.ts', 'background.ts', 'subcommands', 'settings-doc.ts'],
  // What an HTTP request asks for.
  ['routes'],
  // Use cases across resources (leaderboards, reviews, admin jobs, notices, the catalogue and devices), and the
  // in-process runner (it lands results through domain/evaluation/results.ts).
  ['services', 'runner-host'],
  // The domain, by resource: sessions, attempts, submissions, sweeps (each its status's one writer, its jobs, its
  // service), and evaluation (the one evaluation-job factory and the registry of targets results are routed by).
  ['domain'],
  // The agents (they see an AgentContext, not the database).
  ['agents'],
  // Infrastructure: storage, the job queue, events, mail, HTTP plumbing, authentication.
  ['db', 'jobs', 'events', 'mail', 'http', 'auth'],
  // Leaves (errors.ts: the domain's typed errors, which http/errors.ts maps to statuses).
  ['config.ts', 'errors.ts', 'log.ts', 'secret-files.ts'],
];

/**
 * The runner's layers, top first. Its evaluation is organised by backend: backends/<name>/ holds one backend's
 * driver, report schema and toolchain (c-abi: C on a cpu and CUDA; torch: PyTorch), and no backend imports another
 * (RUNNER_SIBLINGS). Above them the composition: evaluate() picks a job's backend from the registry
 * (backends/index.ts), and device discovery asks each what it supports. Below them what every backend shares: the
 * driver and the judge (evaluate/), the timing rules and plan (harness/), profiling, the problems, the devices; then
 * the sandbox every one of them spawns through, which never imports the evaluation (its job-sandbox.ts, which opens a
 * job's folder and cgroup, sits with the evaluation).
 */
export const RUNNER_LAYERS = [
  // The process (main.ts) and the package's API (index.ts, what the server and the cli import).
  ['main.ts', 'index.ts'],
  // The job loop: claims jobs from a server (or the in-process host's table), runs them, posts the results.
  ['loop'],
  // The composition: the backend registry, evaluate() (picks a job's backend) and device discovery (asks each).
  ['backends/index.ts', 'evaluate/evaluate.ts', 'devices/discover.ts'],
  // The backends, one folder each (RUNNER_SIBLINGS: none imports another).
  ['backends'],
  // What the backends share: driver and judge, timing rules, profiling, problems, devices.
  ['evaluate', 'harness', 'profile', 'problems', 'devices', 'sandbox/job-sandbox.ts'],
  // Processes in a sandbox: spawn, bubblewrap, cgroups, seccomp, the timing lock.
  ['sandbox'],
  // Leaves.
  ['internal', 'settings.ts'],
];

/**
 * Folders whose subfolders are siblings that may not import one another (each may import the layers below, and a
 * file of the folder's own, e.g. the registry, may import them all): the runner's backends.
 */
export const RUNNER_SIBLINGS = ['backends'];

/** The web's layers, top first: pages use components and hooks; components use hooks; hooks use lib. */
export const WEB_LAYERS = [
  // The entry (main.tsx), the app shell (App.tsx) and the route table (routes.tsx).
  ['main.tsx', 'App.tsx', 'routes.tsx'],
  // One file per page.
  ['pages'],
  // Shared components (a page's parts, the layouts, tables, forms).
  ['components'],
  // Data hooks (SWR keys and fetchers per resource) and UI hooks.
  ['hooks'],
  // Plain helpers: the api client, formatting, paths, analytics.
  ['lib'],
];

/**
 * The composition root: builds the one AppContext from every layer (its catalogue and device registry are services),
 * and every layer takes the AppContext. So it sits outside the layers, and a file outside the entry layer may import
 * it only with `import type` (the shape, never the building).
 */
export const COMPOSITION_ROOT = 'context.ts';

/** Every .ts(x) file (or whatever `pattern` matches) under `dir`, declaration files left out (absolute, sorted). */
function tsFiles(dir, pattern = /\.tsx?$/) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...tsFiles(path, pattern));
    else if (pattern.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

// `import x from '...'`, `import { a, type b } from '...'`, `import type ...`, `export ... from '...'` (over lines),
// `import '...'` and `import('...')`.
const STATIC = /(?:^|[\n;])\s*(import|export)\s+(type\s+)?([^'"`;]*?)\s*from\s*['"]([^'"]+)['"]/g;
const BARE = /(?:^|[\n;])\s*import\s*['"]([^'"]+)['"]/g;
const DYNAMIC = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

/** The relative imports of one file's text: { spec, typeOnly }. */
export function importsOf(text) {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
  const found = [];
  for (const m of code.matchAll(STATIC)) {
    const [, , typeKw, clause, spec] = m;
    const names = /\{([^}]*)\}/.exec(clause)?.[1];
    const inlineTypes =
      names !== undefined &&
      !/^[\s\w$]+,/.test(clause.replace(/\{[^}]*\}/, '')) &&
      names
        .split(',')
        .map((n) => n.trim())
        .filter(Boolean)
        .every((n) => n.startsWith('type '));
    found.push({ spec, typeOnly: Boolean(typeKw) || inlineTypes });
  }
  for (const m of code.matchAll(BARE)) found.push({ spec: m[1], typeOnly: false });
  for (const m of code.matchAll(DYNAMIC)) found.push({ spec: m[1], typeOnly: false });
  return found.filter((i) => i.spec.startsWith('.'));
}

/** The file an import names: `./x.js` is `./x.ts(x)`, a folder is its index.ts(x). Undefined when none exists. */
function resolveImport(from, spec, files) {
  const base = resolve(dirname(from), spec);
  const stem = base.replace(/\.js$/, '');
  for (const candidate of [
    `${stem}.ts`,
    `${stem}.tsx`,
    `${base}.ts`,
    `${base}.tsx`,
    join(base, 'index.ts'),
    join(base, 'index.tsx'),
  ])
    if (files.has(candidate)) return candidate;
  return undefined;
}

/** Imports of assets (a stylesheet, an image), which a bundler resolves: not part of the code's graph. */
const ASSET = /\.(css|svg|png|jpe?g|gif|webp|woff2?|json|txt|md)(\?.*)?$/;

/**
 * The layer key of a file: the longest layer entry that is its path or a folder above it (an entry may name a file
 * or folder inside a top-level folder), else its top-level folder under src/, or its own name.
 */
function unitOf(srcDir, file, units = []) {
  const path = relative(srcDir, file).split(sep).join('/');
  let best;
  for (const u of units) if ((path === u || path.startsWith(`${u}/`)) && (!best || u.length > best.length)) best = u;
  return best ?? path.split('/')[0];
}

/**
 * The import graph of `srcDir` checked against `layers`: upward imports, value imports of the composition root,
 * imports of files that do not exist or belong to no layer, and cycles (each as its files, in order).
 */
export function checkImports(
  srcDir = join(root, 'packages/server/src'),
  layers = SERVER_LAYERS,
  compositionRoot = COMPOSITION_ROOT,
  allowedCycles = [],
  siblings = [],
) {
  const files = new Set(tsFiles(srcDir));
  const units = layers.flat();
  const rank = new Map(layers.flatMap((us, i) => us.map((u) => [u, i])));
  const entry = new Set(layers[0]);
  const rel = (f) => relative(srcDir, f).split(sep).join('/');
  const problems = [];
  const graph = new Map();
  for (const file of files) {
    const from = unitOf(srcDir, file, units);
    const edges = [];
    if (from !== compositionRoot && !rank.has(from)) problems.push(`${rel(file)}: ${from} is in no layer`);
    for (const { spec, typeOnly } of importsOf(readFileSync(file, 'utf8'))) {
      if (ASSET.test(spec)) continue;
      const target = resolveImport(file, spec, files);
      if (!target) {
        problems.push(`${rel(file)}: imports ${spec}, which is not a file of src/`);
        continue;
      }
      edges.push(target);
      const to = unitOf(srcDir, target, units);
      if (to === compositionRoot) {
        if (!typeOnly && !entry.has(from) && from !== compositionRoot)
          problems.push(
            `${rel(file)}: imports ${rel(target)} for a value; outside the entry layer use \`import type\``,
          );
        continue;
      }
      if (from === compositionRoot) continue;
      const apart = siblingOf(rel(file), siblings);
      const other = siblingOf(rel(target), siblings);
      if (apart && other && apart !== other)
        problems.push(`${rel(file)}: imports ${rel(target)} (${apart} may not import its sibling ${other})`);
      if (from === to) continue;
      if (rank.get(to) < rank.get(from))
        problems.push(`${rel(file)}: upward import of ${rel(target)} (${from} may not import ${to})`);
    }
    graph.set(file, edges);
  }
  const cycles = findCycles(graph).map((cycle) => cycle.map(rel));
  const allowed = new Set(allowedCycles.map((c) => [...c].sort().join(' ')));
  for (const cycle of cycles)
    if (!allowed.has([...cycle].sort().join(' '))) problems.push(`import cycle: ${[...cycle, cycle[0]].join(' -> ')}`);
  return { files: files.size, edges: [...graph.values()].reduce((n, e) => n + e.length, 0), cycles, problems };
}

/** The sibling folder a src/-relative path lies in (`backends/torch` for backends/torch/driver.ts), or undefined. */
function siblingOf(path, siblings) {
  for (const folder of siblings) {
    const m = path.startsWith(`${folder}/`) ? path.slice(folder.length + 1).match(/^([^/]+)\//) : null;
    if (m) return `${folder}/${m[1]}`;
  }
  return undefined;
}

/** Strongly connected components with more than one file (or a file importing itself): Tarjan's algorithm. */
function findCycles(graph) {
  let index = 0;
  const stack = [];
  const on = new Set();
  const idx = new Map();
  const low = new Map();
  const out = [];
  const visit = (v) => {
    idx.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        on.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(component.reverse());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return out;
}

/** Which workspace packages each package's src/ may import: everything rests on the sdk, nothing on cli or web. */
export const PACKAGE_IMPORTS = {
  sdk: [],
  runner: ['sdk'],
  server: ['sdk', 'runner'],
  cli: ['sdk'],
  web: ['sdk'],
};

/** Imports of `@kernelforge/<pkg>` (any subpath) in packages/<name>/src that PACKAGE_IMPORTS does not allow. */
export function checkPackages(packagesDir = join(root, 'packages'), allowed = PACKAGE_IMPORTS) {
  const problems = [];
  for (const [name, may] of Object.entries(allowed)) {
    const dir = join(packagesDir, name, 'src');
    for (const file of tsFiles(dir, /\.tsx?$/)) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/(?:from\s*|import\s*\(?\s*)['"]@kernelforge\/([a-z-]+)/g)) {
        const pkg = m[1];
        if (pkg !== name && !may.includes(pkg))
          problems.push(
            `${relative(packagesDir, file).split(sep).join('/')}: ${name} may not import @kernelforge/${pkg}`,
          );
      }
    }
  }
  return problems;
}

/** The packages whose src/ is checked, with their layers and composition root (the server's alone has one). */
export const LAYERED_PACKAGES = {
  server: { layers: SERVER_LAYERS, compositionRoot: COMPOSITION_ROOT, allowedCycles: [], siblings: [] },
  // (The judge <-> cuda-trust cycle the runner had when its check began is gone: the interval helper both use lives
  // in evaluate/stats.ts.)
  runner: { layers: RUNNER_LAYERS, compositionRoot: null, allowedCycles: [], siblings: RUNNER_SIBLINGS },
  web: { layers: WEB_LAYERS, compositionRoot: null, allowedCycles: [], siblings: [] },
};

/** Every layered package checked: its name and checkImports's result. */
export function checkAll(packagesDir = join(root, 'packages')) {
  return Object.entries(LAYERED_PACKAGES).map(([name, { layers, compositionRoot, allowedCycles, siblings }]) => ({
    name,
    ...checkImports(join(packagesDir, name, 'src'), layers, compositionRoot, allowedCycles, siblings),
  }));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  let failed = 0;
  // `node scripts/check-imports.mjs <src>` checks one tree with the server's layers (the tests' scratch trees).
  const results = process.argv[2] ? [{ name: 'server', ...checkImports(resolve(process.argv[2])) }] : checkAll();
  for (const r of results) {
    for (const p of r.problems) console.error(`${r.name}: ${p}`);
    failed += r.problems.length;
    console.log(`${r.name}: ${r.files} files, ${r.edges} imports; ${r.problems.length} problems`);
  }
  const packages = process.argv[2] ? [] : checkPackages();
  for (const p of packages) console.error(p);
  failed += packages.length;
  process.exit(failed > 0 ? 1 : 0);
}
