// The torch backend's Python side: the kforge_torch package in py/ (its modules, one per concern, listed in its
// __init__.py), staged into a sandbox's folder and run there as `python -c` of one entry module's main().
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../internal/paths.js';

/** The folder holding the package (a path on sys.path for tools outside a sandbox: bench/torch_do_bench.py). */
export const pyDir = (): string => join(packageRoot(), 'src', 'backends', 'torch', 'py');

export const PY_PACKAGE = 'kforge_torch';

/** The worker's modules: all of the package a worker's box gets (the candidate's process imports them; the
    harness's own modules stay out of its sight). */
export const WORKER_MODULES = ['__init__.py', 'worker.py', 'cases.py', 'facts.py', 'loader.py'] as const;

/** Copies `modules` of the package (default: all of it) to `<folder>/kforge_torch/`. */
export function stagePackage(folder: string, modules?: readonly string[]): void {
  const from = join(pyDir(), PY_PACKAGE);
  const to = join(folder, PY_PACKAGE);
  mkdirSync(to, { recursive: true });
  for (const f of modules ?? readdirSync(from).filter((n) => n.endsWith('.py')))
    copyFileSync(join(from, f), join(to, f));
}

/** The interpreter's arguments that run `kforge_torch.<module>`'s main() with the sandbox's /w on sys.path (the
    package staged there); the entry's own arguments follow (sys.argv[1:]). Works under -I, which leaves the script's
    folder and the environment out of sys.path. */
export function entryArgs(module: string): string[] {
  return ['-c', `import sys; sys.path.insert(0, "/w"); from ${PY_PACKAGE}.${module} import main; main()`];
}
