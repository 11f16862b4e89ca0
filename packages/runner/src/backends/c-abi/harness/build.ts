// Builds, once per content hash, the trusted harness for a problem and the worker stub objects a candidate links with.
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { contentHash } from '../../../internal/hash.js';
import { cSourceDir } from '../../../internal/paths.js';
import type { ProblemDefinition } from '../../../problems/schema.js';
import { sandboxArgv } from '../../../sandbox/bwrap.js';
import { makeShared } from '../../../sandbox/shared-folder.js';
import { runCommand } from '../../../sandbox/spawn.js';
import { CUBLAS_HEADER, toolchainFor, type Toolchain } from '../compile/toolchain.js';
import { glueSource } from './glue.js';

const HARNESS_SOURCES = [
  'harness_main.c',
  'harness_layout.c',
  'harness_call.c',
  'harness_correct.c',
  'harness_stats.c',
  'harness_timing.c',
  'harness_phase.c',
  'harness_budget.c',
  'harness_report.c',
  'harness_progress.c',
  'harness_data.c',
  'harness_plan.c',
  'harness_worker.c',
  'harness_probe.c',
];
const HEADERS = ['kf_protocol.h', 'kf_probe.h', 'harness.h', 'harness_internal.h'];

export interface BuiltHarness {
  dir: string;
  /** The harness program (runs the reference in-process). */
  harness: string;
  /** Objects a candidate links with: the worker stub and the glue that calls solution(). */
  workerObjects: string[];
  /** A complete worker that runs the baseline: cuda, reference.cu; cpu, the reference compiled and linked exactly as a
      candidate is (its toolchain's flags, the same stub), so the baseline is timed the same way as the candidate:
      in its own sandboxed process, over the same round trip. */
  baselineWorker?: string;
  /** cuda: the harness's trusted probe (c/probe_cuda.cu), started by the harness itself, never linked with a candidate. */
  probe?: string;
}

const building = new Map<string, Promise<BuiltHarness>>();

async function compileIn(dir: string, tc: Toolchain, argv: string[], what: string): Promise<void> {
  const r = await runCommand(
    sandboxArgv(
      { workDir: dir, writable: true, limits: { cpuSeconds: 300, processes: 256, fileSize: 1 << 30, openFiles: 256 } },
      [tc.binary, ...argv],
    ),
    {
      cwd: dir,
      timeoutMs: 120_000,
      dropRoot: true,
      env: { PATH: '/usr/local/cuda/bin:/usr/bin:/bin', HOME: '/tmp', LC_ALL: 'C', TMPDIR: '/tmp' },
    },
  );
  if (r.code !== 0)
    throw new Error(`building ${what} failed (${r.timedOut ? 'timeout' : `exit ${r.code}`}):\n${r.stderr}${r.stdout}`);
}

export function buildHarness(
  p: ProblemDefinition,
  workDir: string,
  backend: 'cpu' | 'cuda',
  computeCapability?: string,
): Promise<BuiltHarness> {
  const cc = toolchainFor('c');
  const nv = backend === 'cuda' ? toolchainFor('cuda', computeCapability) : undefined;
  const files = harnessFiles(p, nv !== undefined);
  const key = contentHash(
    backend,
    cc.version,
    cc.flags.join(' '),
    nv?.version ?? '',
    nv?.flags.join(' ') ?? '',
    JSON.stringify(files),
  );
  const dir = join(harnessCacheDir(workDir), `harness-${p.name}-${backend}-${key}`);
  const pending = building.get(dir);
  if (pending) return pending;
  const job = buildOnce(p, dir, files, cc, nv);
  building.set(dir, job);
  return job;
}

/**
 * Where built harnesses are kept: the runner's own cache folder, or KFORGE_HARNESS_CACHE_SHARE (test suites only,
 * set by scripts/test.mjs; unset in the product): one folder for a test run's processes, each of which has a work
 * folder of its own, so a problem's harness (about 3 cpu-s of gcc) is built once a run instead of once per test
 * server or test file. Entries are named by the hash of everything they are built from, and made whole before they
 * appear (buildOnce), so processes sharing the folder never see half a build or another build's files.
 */
export function harnessCacheDir(workDir: string): string {
  return process.env.KFORGE_HARNESS_CACHE_SHARE || join(workDir, 'cache');
}

/** The sources of a problem's harness, stubs and glue, by file name (their text is the cache key). */
function harnessFiles(p: ProblemDefinition, cuda: boolean): Record<string, string> {
  const src = cSourceDir();
  const files: Record<string, string> = {};
  for (const f of [...HARNESS_SOURCES, ...HEADERS, 'worker_cpu.c', 'worker_cuda.cu', 'probe_cuda.cu'])
    files[f] = readFileSync(join(src, f), 'utf8');
  files['glue_reference.c'] = glueSource(p.signature, 'reference', 'kf_call_reference');
  files['glue_solution.c'] = glueSource(p.signature, 'solution', 'kf_call_solution');
  files['glue_baseline.c'] = glueSource(p.signature, 'reference', 'kf_call_solution');
  files['reference.c'] = p.reference_c;
  if (cuda) {
    files['glue_solution.cu'] = files['glue_solution.c'];
    files['glue_baseline.cu'] = glueSource(p.signature, 'reference', 'kf_call_solution');
    files['reference.cu'] = p.reference_cu ?? '';
  }
  return files;
}

/** Builds into a fresh folder renamed to `dir` once complete (another runner never sees half a build). */
async function buildOnce(
  p: ProblemDefinition,
  dir: string,
  files: Record<string, string>,
  cc: Toolchain,
  nv: Toolchain | undefined,
): Promise<BuiltHarness> {
  const built: BuiltHarness = {
    dir,
    harness: join(dir, 'harness'),
    workerObjects: nv
      ? [join(dir, 'kf_stub_cuda.o'), join(dir, 'kf_glue_cuda.o')]
      : [join(dir, 'kf_stub.o'), join(dir, 'kf_glue.o')],
    ...(nv && !p.reference_cu ? {} : { baselineWorker: join(dir, 'baseline_worker') }),
    ...(nv ? { probe: join(dir, 'kf_probe') } : {}),
  };
  if (existsSync(join(dir, 'done'))) return built;
  const tmp = `${dir}.tmp-${process.pid}-${Date.now()}`;
  mkdirSync(tmp, { recursive: true });
  makeShared(tmp);
  try {
    for (const [name, text] of Object.entries(files)) writeFileSync(join(tmp, name), text);
    await compileHarness(tmp, p, cc);
    if (nv) await compileCudaWorkerParts(tmp, p, nv);
    else await compileCpuWorkerParts(tmp, p, cc);
    writeFileSync(join(tmp, 'done'), '');
    // Another process may have put the same build there meanwhile (a shared cache folder): keep the one in place,
    // which may be in use, and drop this one. A folder without `done` is never in use: it is replaced.
    if (existsSync(join(dir, 'done'))) rmSync(tmp, { recursive: true, force: true });
    else {
      rmSync(dir, { recursive: true, force: true });
      try {
        renameSync(tmp, dir);
      } catch (error) {
        if (!existsSync(join(dir, 'done'))) throw error;
        rmSync(tmp, { recursive: true, force: true });
      }
    }
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    throw e;
  } finally {
    building.delete(dir);
  }
  return built;
}

const OPT = ['-O3', '-march=native'];

/** A custom reference may name its entry `solution`; it is always called as `reference`. */
const refDefine = (p: ProblemDefinition) => (p.custom ? ['-Dsolution=reference'] : []);

/** The trusted harness: the C sources with the reference compiled in. */
async function compileHarness(tmp: string, p: ProblemDefinition, cc: Toolchain): Promise<void> {
  await compileIn(tmp, cc, [...OPT, ...refDefine(p), '-c', 'reference.c', '-o', 'reference.o'], 'the reference');
  await compileIn(
    tmp,
    cc,
    [...OPT, '-o', 'harness', ...HARNESS_SOURCES, 'glue_reference.c', 'reference.o', '-lm'],
    'the harness',
  );
}

async function compileCudaWorkerParts(tmp: string, p: ProblemDefinition, nv: Toolchain): Promise<void> {
  await compileIn(tmp, nv, [...nv.flags, '-c', 'worker_cuda.cu', '-o', 'kf_stub_cuda.o'], 'the cuda worker stub');
  await compileIn(tmp, nv, [...nv.flags, '-c', 'glue_solution.cu', '-o', 'kf_glue_cuda.o'], 'the cuda glue');
  await compileIn(tmp, nv, [...nv.flags, '-o', 'kf_probe', 'probe_cuda.cu'], 'the cuda probe');
  if (!p.reference_cu) return;
  const cublas = p.reference_cu.includes('cublas') && existsSync(CUBLAS_HEADER) ? ['-lcublas'] : [];
  await compileIn(
    tmp,
    nv,
    [...nv.flags, '-o', 'baseline_worker', 'reference.cu', 'glue_baseline.cu', 'kf_stub_cuda.o', ...cublas],
    'the cuda baseline',
  );
}

async function compileCpuWorkerParts(tmp: string, p: ProblemDefinition, cc: Toolchain): Promise<void> {
  await compileIn(tmp, cc, [...OPT, '-c', 'worker_cpu.c', '-o', 'kf_stub.o'], 'the worker stub');
  await compileIn(tmp, cc, [...OPT, '-c', 'glue_solution.c', '-o', 'kf_glue.o'], 'the glue');
  // The baseline worker: the reference as a candidate that submitted it would be built (same flags, same stub), so
  // identical code reads 1.00x.
  await compileIn(
    tmp,
    cc,
    [
      ...cc.flags,
      ...refDefine(p),
      '-o',
      'baseline_worker',
      'reference.c',
      'glue_baseline.c',
      'kf_stub.o',
      ...cc.linkFlags,
    ],
    'the baseline worker',
  );
}

/** Copies the worker objects into a job directory (the candidate's compile sees only its own folder). */
export function stageWorkerObjects(built: BuiltHarness, jobDir: string): string[] {
  return built.workerObjects.map((o) => {
    const name = o.slice(o.lastIndexOf('/') + 1);
    copyFileSync(o, join(jobDir, name));
    return name;
  });
}
