// The built-in problem catalogue, loaded once from problems/ by the runner's loader; public views never carry ranked sizes.
import {
  type Catalogue as Definitions,
  loadCatalogue,
  loadTorchProblems,
  problemDirsFromEnv,
  type ProblemDefinition,
  type TorchLoadError,
  toPublicProblem,
  torchFilesIn,
} from '@kernelforge/runner';
import { existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Problem } from '@kernelforge/sdk';
import { NotFoundError } from '../errors.js';

/** Where inspections of pytorch problem files are cached (by content): shared by this user's servers. */
function inspectionCacheDir(): string {
  const dir = join(tmpdir(), `kforge-torch-inspect-${process.getuid?.() ?? 'user'}`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

export class Catalogue {
  private loaded: Promise<Definitions> | null = null;
  /** pytorch files that did not load, with why (logged once at load). */
  loadErrors: TorchLoadError[] = [];

  /**
   * `dir` holds the C-ABI problems (one folder each) and the built-in pytorch files under `pytorch/`;
   * `extraDirs` (KFORGE_PROBLEM_DIRS) add operators' folders of KernelBench-format files.
   */
  constructor(
    private readonly dir: string,
    private readonly extraDirs: readonly string[] = problemDirsFromEnv(),
    private readonly budgets?: { cpu: number; cuda: number },
    /** The interpreter that inspects pytorch files (KFORGE_PYTHON, from the config). Default /usr/bin/python3. */
    private readonly python?: string,
  ) {}

  /** Full definitions (hidden ranked sizes included): for the runner only, never for a response. */
  definitions(): Promise<Definitions> {
    // A missing problems/ folder is an empty catalogue, not a crash (a bare install can still run custom sessions).
    this.loaded ??= Promise.resolve().then(() => this.load());
    return this.loaded;
  }

  private async load(): Promise<Definitions> {
    const c: Map<string, ProblemDefinition> = existsSync(this.dir) ? new Map(loadCatalogue(this.dir)) : new Map();
    const files = [
      ...torchFilesIn(join(this.dir, 'pytorch'), 'builtin'),
      ...this.extraDirs.flatMap((d) => torchFilesIn(d, 'operator')),
    ];
    if (files.length === 0) return c;
    // C-ABI names win; a pytorch file whose stem is taken becomes <stem>__torch (see docs/operations.md).
    const { problems, errors } = await loadTorchProblems(files, {
      taken: new Set(c.keys()),
      cacheDir: inspectionCacheDir(),
      ...(this.budgets ? { budgets: this.budgets } : {}),
      ...(this.python ? { python: this.python } : {}),
    });
    for (const p of problems) c.set(p.name, p);
    this.loadErrors = errors;
    for (const e of errors) console.warn(`[kforge] problem file ${e.file} did not load: ${e.error.split('\n')[0]}`);
    return c;
  }

  async list(): Promise<Problem[]> {
    return [...(await this.definitions()).values()].map(toPublicProblem).sort(byLevelThenName);
  }

  async find(name: string): Promise<Problem | undefined> {
    const def = (await this.definitions()).get(name);
    return def ? toPublicProblem(def) : undefined;
  }

  /** The public problem, or a 404 whose one-line detail says where the names are (and the one meant, when clear). */
  async require(name: string): Promise<Problem> {
    const found = await this.find(name);
    if (found) return found;
    const meant = closestName(name, [...(await this.definitions()).keys()]);
    const shown = name.length > 60 ? `${name.slice(0, 60)}…` : name;
    throw new NotFoundError(
      `Unknown problem '${shown}'${meant ? ` (did you mean '${meant}'?)` : ''}; GET /api/v1/problems lists them`,
    );
  }
}

/** The one name that `typed` is plainly short for ('relu' -> '19_ReLU'), else undefined. */
function closestName(typed: string, names: string[]): string | undefined {
  const t = typed
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  if (t.length < 3) return undefined;
  const only = (hits: string[]) => (hits.length === 1 ? hits[0] : undefined);
  const lower = names.map((n) => [n, n.toLowerCase()] as const);
  return (
    only(lower.filter(([, l]) => l === t || l.replace(/^\d+_/, '') === t).map(([n]) => n)) ??
    only(lower.filter(([, l]) => l.endsWith(`_${t}`)).map(([n]) => n))
  );
}

function byLevelThenName(a: Problem, b: Problem): number {
  return a.level - b.level || a.name.localeCompare(b.name, 'en', { numeric: true });
}
