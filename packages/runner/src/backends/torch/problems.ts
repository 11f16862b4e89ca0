// PyTorch problems in the KernelBench format: one .py file per problem (class Model, module-level integer size
// constants, get_inputs(), get_init_inputs()). Inspecting a file runs its Python, so it happens in a sandbox
// (bwrap, no network, rlimits, a wall limit), once per file content (cached by SHA-256), in one Python process
// for all the files that need it.
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { TorchProblemInfo } from '@kernelforge/sdk';
import { makeShared } from '../../sandbox/shared-folder.js';
import { sandboxArgv } from '../../sandbox/bwrap.js';
import { runCommand, type SpawnResult } from '../../sandbox/spawn.js';
import { DEFAULT_PYTHON } from '../../settings.js';
import type { ProblemDefinition } from '../../problems/schema.js';
import { entryArgs, stagePackage } from './py-package.js';
import { torchToolchain, torchToolchainQuick } from './toolchain.js';

/** Bumped when the inspector's output changes, so cached inspections are redone. */
const INSPECTOR_VERSION = 4;

export interface TorchBudgets {
  /** Bytes of inputs + outputs + parameters allowed per device kind. */
  cpu: number;
  cuda: number;
}

/** KFORGE_TORCH_BUDGET_MB (cpu, default 256) and KFORGE_TORCH_CUDA_BUDGET_MB (default 4096). */
export function torchBudgets(env: NodeJS.ProcessEnv = process.env): TorchBudgets {
  const mb = (v: string | undefined, d: number) => {
    const n = Number(v);
    return (Number.isFinite(n) && n > 0 ? n : d) * 2 ** 20;
  };
  return { cpu: mb(env.KFORGE_TORCH_BUDGET_MB, 256), cuda: mb(env.KFORGE_TORCH_CUDA_BUDGET_MB, 4096) };
}

/** Test cases: two further reduced sizes (8 MiB and 1 MiB of data), smallest first. */
const TEST_BUDGETS = [8 << 20, 1 << 20];

export interface TorchFile {
  path: string;
  /** The file's stem, e.g. `19_ReLU`. */
  stem: string;
  level: number;
  origin: 'builtin' | 'operator';
}

/** The .py files of a folder: its level1/ level2/ level3/ subfolders when it has them, else its own files. */
export function torchFilesIn(dir: string, origin: TorchFile['origin']): TorchFile[] {
  const out: TorchFile[] = [];
  const levelDirs = existsSync(dir)
    ? readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory() && /^level\d+$/.test(e.name))
    : [];
  const scan = (d: string, level: number) => {
    for (const f of readdirSync(d).sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))) {
      if (!f.endsWith('.py') || f.startsWith('_')) continue;
      const path = join(d, f);
      if (!statSync(path).isFile()) continue;
      out.push({ path, stem: f.slice(0, -3), level, origin });
    }
  };
  if (levelDirs.length > 0) {
    for (const e of levelDirs.sort((a, b) => a.name.localeCompare(b.name, 'en', { numeric: true })))
      scan(join(dir, e.name), Number(e.name.slice(5)));
  } else if (existsSync(dir)) {
    const m = /level(\d+)$/.exec(basename(dir));
    scan(dir, m ? Number(m[1]) : 1);
  }
  return out;
}

/** What the inspector reports for one file (the sizes are sdk TorchDeviceSizes per device kind). */
export interface Inspection {
  constants: Record<string, number>;
  scalable_constants: string[];
  scalable: boolean;
  scaling_note: string;
  sizes: TorchProblemInfo['sizes'];
  tolerance: { atol: number; rtol: number };
  /** The reference's outputs on its seeded inputs at each test size (absent in inspections before version 4). */
  reference_outputs?: Array<{ case: string; outputs: OutputStats[] }>;
}

/** One output tensor of the reference, in float64. */
export interface OutputStats {
  numel: number;
  mean: number;
  std: number;
  rms: number;
  finite: boolean;
}

export interface TorchLoadWarning {
  file: string;
  warning: string;
}

/** Relative spread under which outputs count as constant (std < this x |mean|). */
const NEAR_CONSTANT = 1e-3;

/**
 * Why the reference's outputs make a weak test (robust-kbench's output sanity): near-constant outputs (a constant
 * answer passes), near zero (RMS under atol: all-zero outputs pass the tolerance), or NaN/inf. One line per
 * reason, at the first test case that shows it.
 */
export function referenceOutputWarnings(info: Inspection): string[] {
  const out = new Map<string, string>();
  const g = (v: number) => String(Number(v.toPrecision(3)));
  const atol = info.tolerance.atol;
  for (const { case: name, outputs } of info.reference_outputs ?? []) {
    for (const [i, o] of outputs.entries()) {
      const which = outputs.length > 1 ? `output ${i}` : 'outputs';
      const at = `at test size ${name}`;
      if (!o.finite) {
        out.set(`${i} finite`, `the reference's ${which} hold NaN or inf ${at}: comparisons there prove little`);
        continue;
      }
      if (o.numel > 1 && o.std < NEAR_CONSTANT * Math.max(Math.abs(o.mean), 1e-30) && !out.has(`${i} constant`))
        out.set(
          `${i} constant`,
          `the reference's ${which} are near-constant ${at} (mean ${g(o.mean)}, std ${g(o.std)}): a candidate returning a constant would pass`,
        );
      if (o.rms < atol && !out.has(`${i} zero`))
        out.set(
          `${i} zero`,
          `the reference's ${which} are near zero ${at} (RMS ${g(o.rms)}, under atol ${g(atol)}): all-zero outputs would pass the tolerance`,
        );
    }
  }
  return [...out.values()];
}

export type InspectResult = { ok: true; info: Inspection } | { ok: false; error: string; trace?: string };

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

interface InspectOptions {
  cacheDir: string;
  budgets?: TorchBudgets;
  perFileSeconds?: number;
  /** The interpreter (KFORGE_PYTHON, read by the entry points). Default /usr/bin/python3. */
  python?: string;
}

/** One inspection run's inputs: the files, their cache, budgets and the interpreter. */
interface InspectRun {
  sources: ReadonlyArray<{ name: string; text: string }>;
  budgets: TorchBudgets;
  perFile: number;
  python: string;
  /** A file's cache entry (under `<cacheDir>/torch-inspect`), by its text. */
  entryOf: (text: string) => string;
}

/**
 * Inspects files (cached by content, budgets and inspector version under `cacheDir`): the uncached ones in one
 * sandboxed Python process; a file that crashes or hangs it is reported failed and the rest run in a new one. A file
 * that fails beside others is tried once more alone: one file's half-done import can leave a module broken for every
 * file after it in the same process (on an H200 with PyTorch 2.11, the first file's failed import of torch._dynamo
 * made five more fail with Inductor's "Artifact ... already registered").
 */
export async function inspectTorchSources(
  sources: ReadonlyArray<{ name: string; text: string }>,
  opts: InspectOptions,
): Promise<InspectResult[]> {
  const budgets = opts.budgets ?? torchBudgets();
  const keyOf = (text: string) =>
    sha256(`${INSPECTOR_VERSION}\0${budgets.cpu}\0${budgets.cuda}\0${TEST_BUDGETS.join(',')}\0${text}`);
  const cacheDir = join(opts.cacheDir, 'torch-inspect');
  mkdirSync(cacheDir, { recursive: true });
  const run: InspectRun = {
    sources,
    budgets,
    perFile: opts.perFileSeconds ?? 90,
    python: opts.python ?? DEFAULT_PYTHON,
    entryOf: (text) => join(cacheDir, `${keyOf(text)}.json`),
  };
  const results: Array<InspectResult | undefined> = sources.map((s) => cachedInspection(run.entryOf(s.text)));
  const fresh = sources.map((_, i) => i).filter((i) => results[i] === undefined);
  let todo = fresh;
  while (todo.length > 0) {
    const done = await inspectSome(run, todo, results);
    todo = todo.filter((i) => !done.has(i));
  }
  if (fresh.length > 1) for (const i of fresh) if (results[i]?.ok === false) await inspectSome(run, [i], results);
  return results as InspectResult[];
}

function cachedInspection(entry: string): InspectResult | undefined {
  try {
    return JSON.parse(readFileSync(entry, 'utf8')) as InspectResult;
  } catch {
    return undefined;
  }
}

/** One inspector process over the files `todo` (indexes into run.sources): fills `results`, returns those done. */
async function inspectSome(
  run: InspectRun,
  todo: readonly number[],
  results: Array<InspectResult | undefined>,
): Promise<Set<number>> {
  const box = join(tmpdir(), `kforge-inspect-${randomUUID()}`);
  mkdirSync(join(box, 'files'), { recursive: true });
  try {
    stageInspection(run, todo, box);
    const r = await runInspector(run, todo.length, box);
    const { done, started } = readInspections(run, r.stdout, results);
    const failedOne = started !== undefined && !done.has(started) ? started : todo.find((i) => !done.has(i));
    if (failedOne !== undefined && !done.has(failedOne)) {
      // Not cached: a crash may be the machine's (memory), not the file's.
      results[failedOne] = {
        ok: false,
        error: `the inspection ${r.timedOut ? 'ran out of time' : `stopped (${r.code ?? r.signal})`} on this file: ${r.stderr.slice(-1500)}`,
      };
      done.add(failedOne);
    }
    return done;
  } finally {
    rmSync(box, { recursive: true, force: true });
  }
}

/** The inspector, the files and its request in a fresh folder the sandbox sees (at /w). */
function stageInspection(run: InspectRun, todo: readonly number[], box: string): void {
  stagePackage(box, ['__init__.py', 'inspection.py', 'common.py']);
  const files = todo.map((i) => {
    const s = run.sources[i] as { name: string; text: string };
    writeFileSync(join(box, 'files', `${i}.py`), s.text);
    return { id: String(i), path: `/w/files/${i}.py`, name: s.name };
  });
  writeFileSync(
    join(box, 'request.json'),
    JSON.stringify({ files, budgets: run.budgets, test_budgets: TEST_BUDGETS, per_file_seconds: run.perFile }),
  );
  makeShared(box);
}

function inspectorRoots(python: string): string[] {
  return torchToolchainQuick(python).ok ? (torchToolchain(python).roots ?? []) : [];
}

function runInspector(run: InspectRun, count: number, box: string): Promise<SpawnResult> {
  return runCommand(
    sandboxArgv(
      {
        workDir: box,
        writable: false,
        limits: {
          cpuSeconds: run.perFile * count + 60,
          addressSpace: 8 * 2 ** 30 + 4 * Math.max(run.budgets.cpu, 0),
          processes: 256,
          fileSize: 1 << 20,
          openFiles: 256,
        },
        asPid1: true,
        // The interpreter's folders outside /usr (a virtual environment): the check imports torch once, as this does.
        roBinds: inspectorRoots(run.python),
      },
      [run.python, '-I', ...entryArgs('inspection'), '/w/request.json'],
    ),
    {
      cwd: box,
      timeoutMs: (run.perFile * count + 60) * 1000,
      dropRoot: true,
      stdoutCapBytes: 64 << 20,
      env: {
        PATH: '/usr/bin:/bin',
        HOME: '/tmp',
        LC_ALL: 'C.UTF-8',
        OMP_NUM_THREADS: '1',
        PYTHONDONTWRITEBYTECODE: '1',
      },
    },
  );
}

/** The inspector's `result` lines into `results` (and the cache); which file it started last. */
function readInspections(
  run: InspectRun,
  stdout: string,
  results: Array<InspectResult | undefined>,
): { done: Set<number>; started: number | undefined } {
  let started: number | undefined;
  const done = new Set<number>();
  for (const line of stdout.split('\n')) {
    if (line.startsWith('start ')) started = Number(line.slice(6));
    else if (line.startsWith('result ')) {
      const res = JSON.parse(line.slice(7)) as InspectResult & { id: string };
      const i = Number(res.id);
      const { id: _id, ...rest } = res;
      results[i] = rest as InspectResult;
      done.add(i);
      // Written whole, then renamed: another process loading the same files never reads half an entry.
      const entry = run.entryOf((run.sources[i] as { text: string }).text);
      writeFileSync(`${entry}.${process.pid}.tmp`, JSON.stringify(rest));
      renameSync(`${entry}.${process.pid}.tmp`, entry);
    }
  }
  return { done, started };
}

/** A KernelBench stem as a title: `19_ReLU` -> `19 ReLU` (the spec's rule: underscores to spaces, trimmed). */
function titleOf(stem: string): string {
  return stem.replace(/_/g, ' ').trim();
}

function firstDocLine(source: string): string {
  const m = /class\s+Model\s*\([^)]*\)\s*:\s*(?:"""([\s\S]*?)"""|'''([\s\S]*?)''')/.exec(source);
  const doc = (m?.[1] ?? m?.[2] ?? '').trim().replace(/\s+/g, ' ');
  return doc || 'A PyTorch problem in the KernelBench format.';
}

export interface TorchLoadError {
  file: string;
  error: string;
}

/** A pytorch problem's definition: the common fields the catalogue needs, plus its file and inspection. */
export function torchDefinition(file: TorchFile, name: string, text: string, info: Inspection): ProblemDefinition {
  const cpu = info.sizes.cpu;
  const cases = (list: Array<{ name: string; constants: Record<string, number> }> | undefined) =>
    (list ?? []).map((c) => ({ name: c.name, sizes: { ...c.constants } }));
  return {
    name,
    title: titleOf(name),
    level: file.level,
    description: firstDocLine(text),
    signature: [],
    cases: { test: cases(cpu?.test), benchmark: cases(cpu?.benchmark), ranked: [] },
    distributions: ['normal', 'uniform'],
    tolerance: info.tolerance,
    cost: { flops: '0', bytes: '0' },
    // cpu, and cuda devices whose runner has a CUDA PyTorch 2.x (the device says why not otherwise), at the
    // inspector's CUDA sizes.
    backends: ['cpu', 'cuda'],
    languages: ['pytorch'],
    reference_c: '',
    custom: false,
    kind: 'pytorch',
    torch: {
      source: text,
      file_name: basename(file.path),
      path: file.path,
      info: {
        constants: info.constants,
        scalable_constants: info.scalable_constants,
        scalable: info.scalable,
        scaling_note: info.scaling_note,
        sizes: info.sizes,
        origin: file.origin,
        sha256: sha256(text),
      },
    },
  };
}

/**
 * Loads pytorch problems from folders. Names: the file's stem. A stem already taken (by a C-ABI problem, or a
 * file loaded earlier: built-in problems/pytorch first, then KFORGE_PROBLEM_DIRS in order) is not shadowed:
 * the later file is registered as `<stem>__torch` (`__torch2`, ... if that is taken too), and says so in its
 * description. Files that fail to load are returned as errors; they never stop the others. Warnings: the
 * reference's outputs make a weak test (referenceOutputWarnings); they do not stop a file loading.
 */
export async function loadTorchProblems(
  files: readonly TorchFile[],
  opts: { taken: ReadonlySet<string>; cacheDir: string; budgets?: TorchBudgets; python?: string },
): Promise<{ problems: ProblemDefinition[]; errors: TorchLoadError[]; warnings: TorchLoadWarning[] }> {
  const texts = files.map((f) => {
    try {
      return readFileSync(f.path, 'utf8');
    } catch (e) {
      return e as Error;
    }
  });
  const readable = files.map((_, i) => i).filter((i) => typeof texts[i] === 'string');
  const inspected = await inspectTorchSources(
    readable.map((i) => ({ name: basename((files[i] as TorchFile).path), text: texts[i] as string })),
    {
      cacheDir: opts.cacheDir,
      ...(opts.budgets ? { budgets: opts.budgets } : {}),
      ...(opts.python ? { python: opts.python } : {}),
    },
  );
  const byIndex = new Map(readable.map((i, k) => [i, inspected[k] as InspectResult]));
  const taken = new Set(opts.taken);
  const problems: ProblemDefinition[] = [];
  const errors: TorchLoadError[] = [];
  const warnings: TorchLoadWarning[] = [];
  for (const [i, f] of files.entries()) {
    const text = texts[i];
    if (typeof text !== 'string') {
      errors.push({ file: f.path, error: String(text) });
      continue;
    }
    const r = byIndex.get(i);
    if (r === undefined || !r.ok) {
      errors.push({ file: f.path, error: r === undefined ? 'not inspected' : r.error });
      continue;
    }
    if (!/^[A-Za-z0-9_]+$/.test(f.stem)) {
      errors.push({ file: f.path, error: `the name "${f.stem}" is not letters, digits and underscores` });
      continue;
    }
    let name = f.stem;
    for (let k = 1; taken.has(name); k++) name = `${f.stem}__torch${k === 1 ? '' : k}`;
    taken.add(name);
    const def = torchDefinition(f, name, text, r.info);
    if (name !== f.stem)
      def.description = `${def.description} (Named ${name}: the name ${f.stem} belongs to another problem.)`;
    problems.push(def);
    for (const warning of referenceOutputWarnings(r.info)) warnings.push({ file: f.path, warning });
  }
  return { problems, errors, warnings };
}

/** Folders named in KFORGE_PROBLEM_DIRS (colon-separated). */
export function problemDirsFromEnv(env: NodeJS.ProcessEnv = process.env): string[] {
  return (env.KFORGE_PROBLEM_DIRS ?? '').split(':').filter((d) => d.trim() !== '');
}
