// The import direction, checked: walks the relative imports of packages/server/src/**/*.ts (a regex over each file;
// no compiler needed) and reports every upward import and every import cycle, and which workspace packages each
// package imports. docs/architecture.md states both; `node scripts/check-imports.mjs` exits 1 on a problem.
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
  // The product's use cases, and the in-process runner (it lands results through services/evaluation-results.ts).
  ['services', 'runner-host'],
  // The session loop: attempts, their lifecycle, generate workers, stop.
  ['sessions'],
  // The agents (they see an AgentContext, not the database).
  ['agents'],
  // Infrastructure: storage, the job queue, events, mail, HTTP plumbing, authentication.
  ['db', 'jobs', 'events', 'mail', 'http', 'auth'],
  // Leaves (errors.ts: the domain's typed errors, which http/errors.ts maps to statuses).
  ['config.ts', 'errors.ts', 'log.ts', 'secret-files.ts'],
];

/**
 * The composition root: builds the one AppContext from every layer (its catalogue and device registry are services),
 * and every layer takes the AppContext. So it sits outside the layers, and a file outside the entry layer may import
 * it only with `import type` (the shape, never the building).
 */
export const COMPOSITION_ROOT = 'context.ts';

/** Every .ts file (or whatever `pattern` matches) under `dir`, declaration files left out (absolute, sorted). */
function tsFiles(dir, pattern = /\.ts$/) {
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

/** The file an import names: `./x.js` is `./x.ts`, a folder is its index.ts. Undefined when none exists. */
function resolveImport(from, spec, files) {
  const base = resolve(dirname(from), spec);
  for (const candidate of [base.replace(/\.js$/, '.ts'), `${base}.ts`, join(base, 'index.ts')])
    if (files.has(candidate)) return candidate;
  return undefined;
}

/** The layer key of a file: its top-level folder under src/, or its own name. */
function unitOf(srcDir, file) {
  return relative(srcDir, file).split(sep)[0];
}

/**
 * The import graph of `srcDir` checked against `layers`: upward imports, value imports of the composition root,
 * imports of files that do not exist or belong to no layer, and cycles (each as its files, in order).
 */
export function checkImports(srcDir = join(root, 'packages/server/src'), layers = SERVER_LAYERS) {
  const files = new Set(tsFiles(srcDir));
  const rank = new Map(layers.flatMap((units, i) => units.map((u) => [u, i])));
  const entry = new Set(layers[0]);
  const rel = (f) => relative(srcDir, f).split(sep).join('/');
  const problems = [];
  const graph = new Map();
  for (const file of files) {
    const from = unitOf(srcDir, file);
    const edges = [];
    if (from !== COMPOSITION_ROOT && !rank.has(from)) problems.push(`${rel(file)}: ${from} is in no layer`);
    for (const { spec, typeOnly } of importsOf(readFileSync(file, 'utf8'))) {
      const target = resolveImport(file, spec, files);
      if (!target) {
        problems.push(`${rel(file)}: imports ${spec}, which is not a file of src/`);
        continue;
      }
      edges.push(target);
      const to = unitOf(srcDir, target);
      if (to === COMPOSITION_ROOT) {
        if (!typeOnly && !entry.has(from) && from !== COMPOSITION_ROOT)
          problems.push(
            `${rel(file)}: imports ${rel(target)} for a value; outside the entry layer use \`import type\``,
          );
        continue;
      }
      if (from === COMPOSITION_ROOT || from === to) continue;
      if (rank.get(to) < rank.get(from))
        problems.push(`${rel(file)}: upward import of ${rel(target)} (${from} may not import ${to})`);
    }
    graph.set(file, edges);
  }
  const cycles = findCycles(graph).map((cycle) => cycle.map(rel));
  for (const cycle of cycles) problems.push(`import cycle: ${[...cycle, cycle[0]].join(' -> ')}`);
  return { files: files.size, edges: [...graph.values()].reduce((n, e) => n + e.length, 0), cycles, problems };
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

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const result = checkImports(process.argv[2] ? resolve(process.argv[2]) : undefined);
  const problems = [...result.problems, ...(process.argv[2] ? [] : checkPackages())];
  for (const p of problems) console.error(p);
  console.log(`server: ${result.files} files, ${result.edges} imports; ${problems.length} problems`);
  process.exit(problems.length > 0 ? 1 : 0);
}
