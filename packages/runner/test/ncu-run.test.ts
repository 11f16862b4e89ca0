// Issue 37 without a GPU: the untimed Nsight Compute run of an accepted cuda candidate (profile/ncu-run.ts). Its
// capability check (no ncu, turned off, counters kept to administrators), the kernels it is limited to, its CSV read
// back or its refusal, and, end to end, the trusted C harness's cuda path starting the stand-in worker under a
// stand-in ncu inside the bubblewrap sandbox (the launch line the runner writes, ncu's folder mounted read-only):
// the CSV the stand-in prints after its worker exits reaches the counters. What it cannot test here: real ncu
// injecting into the worker, the driver's counter permission, ncu's replay (bench/cuda-facts.mjs on a GPU).
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BuildFacts } from '@kernelforge/sdk';
import { afterAll, describe, expect, it } from 'vitest';
import { glueSource } from '../src/backends/c-abi/harness/glue.js';
import { planText } from '../src/harness/plan.js';
import { runHarness } from '../src/backends/c-abi/harness/run-harness.js';
import { cSourceDir } from '../src/internal/paths.js';
import {
  NCU_RUN_TIMING,
  NCU_TMP_BYTES,
  NCU_EXIT_WAIT_MS,
  ncuCapability,
  ncuCountersOf,
  ncuKernelNames,
  ncuWorkerPrefix,
  withCounters,
} from '../src/profile/ncu-run.js';
import { sandboxAvailable } from '../src/sandbox/bwrap.js';
import { catalogue, fixture } from './helpers.js';

const SAMPLE = fixture('./cuda/ncu-details.csv');
const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'kf-ncu-run-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const facts: BuildFacts = {
  symbols: ['_Z4reluPKfPfl'],
  assembly: '',
  assembly_truncated: false,
  hot_loop: null,
  vectorization: null,
  counters: { available: false, reason: 'not measured' },
  cuda: {
    arch: 'sm_90',
    user_constant_bytes: null,
    assembly_kind: 'ptx',
    limits_source: 'x',
    kernels: [
      'relu(float const*, float*, long)',
      'void kf_tiled_gemm<16>(float const*, float const*, float*, long)',
    ].map((name) => ({
      name,
      mangled: name,
      registers: 10,
      stack_bytes: 0,
      spill_store_bytes: 0,
      spill_load_bytes: 0,
      shared_bytes: 0,
      constant_bytes: null,
      barriers: null,
      max_threads: null,
      occupancy: [],
    })),
  },
};

describe('the ncu run: capability, kernels, counters', () => {
  it('says why it cannot run: no ncu, turned off, counters kept to administrators', () => {
    expect(ncuCapability({ ncu: null, env: {} })).toEqual({
      ok: false,
      reason: 'not available here, because Nsight Compute (ncu) is not on this runner',
    });
    const d = tmp();
    const ncu = join(d, 'ncu');
    writeFileSync(ncu, '#!/bin/sh\n');
    expect(ncuCapability({ ncu, env: { KFORGE_NCU: '0' } })).toMatchObject({ ok: false, reason: /KFORGE_NCU=0/ });
    const params = join(d, 'params');
    writeFileSync(params, 'ResmanDebugLevel: 4294967295\nRmProfilingAdminOnly: 1\n');
    const refused = ncuCapability({ ncu, params, env: {} });
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.reason).toMatch(/RmProfilingAdminOnly=1.*runs unprivileged/);
    writeFileSync(params, 'RmProfilingAdminOnly: 0\n');
    expect(ncuCapability({ ncu, params, env: {} })).toEqual({ ok: true, ncu, roots: [d] });
    // Without the driver's params file (no GPU driver here) it is not refused for it: ncu itself will say.
    expect(ncuCapability({ ncu, params: join(d, 'none'), env: {} }).ok).toBe(true);
  });

  it('profiles only the candidate kernels (base names from the facts), at most 8 launches', () => {
    expect(ncuKernelNames(facts)).toEqual(['relu', 'kf_tiled_gemm']);
    const argv = ncuWorkerPrefix('/opt/ncu/ncu', ncuKernelNames(facts));
    expect(argv[0]).toBe('/opt/ncu/ncu');
    expect(argv.join(' ')).toContain('--kernel-name regex:^(relu|kf_tiled_gemm)$');
    expect(argv.join(' ')).toContain('--launch-count 8');
    expect(argv.join(' ')).toContain('--target-processes all');
  });

  it("reads ncu's CSV among the program's output, or its refusal; keeps the other facts", () => {
    const c = ncuCountersOf({ stdout: `hello from the kernel\n${SAMPLE}`, stderr: '', timedOut: false });
    expect(c.available).toBe(true);
    expect(c.values).toMatchObject({ sm_throughput_pct: 78.9 });
    expect(
      ncuCountersOf({ stdout: '', stderr: '==ERROR== ERR_NVGPUCTRPERM - no permission', timedOut: false }).reason,
    ).toMatch(/restricts GPU performance counters to administrators/);
    expect(ncuCountersOf({ stdout: '', stderr: '', timedOut: false }).reason).toMatch(/printed no metrics/);
    expect(ncuCountersOf({ stdout: '', stderr: '', timedOut: true }).reason).toMatch(/ran past its limit/);
    const joined = withCounters(facts, c);
    expect({ ...joined, counters: facts.counters }).toEqual(facts);
    expect(withCounters(undefined, c)).toBeNull();
  });
});

const hasCc = spawnSync('cc', ['--version']).status === 0;
const pidfdGetfd = (() => {
  const [maj, min] = (spawnSync('uname', ['-r'], { encoding: 'utf8' }).stdout || '0.0').split('.').map(Number);
  return (maj ?? 0) > 5 || ((maj ?? 0) === 5 && (min ?? 0) >= 6);
})();

describe.skipIf(!hasCc || !pidfdGetfd || !sandboxAvailable())('the ncu run through the harness (stand-ins)', () => {
  it("the worker starts under the stand-in ncu inside its sandbox; ncu's CSV after the worker's exit is read", async () => {
    const dir = tmp();
    const c = cSourceDir();
    const fakes = join(__dirname, 'fake-cuda');
    const p = catalogue.get('19_ReLU');
    if (!p) throw new Error('19_ReLU missing');
    writeFileSync(join(dir, 'glue_reference.c'), glueSource(p.signature, 'reference', 'kf_call_reference'));
    writeFileSync(join(dir, 'reference.c'), p.reference_c);
    const harnessSources = readdirSync(c)
      .filter((f) => f.startsWith('harness_') && f.endsWith('.c'))
      .map((f) => join(c, f));
    const harness = join(dir, 'harness');
    execFileSync('cc', [
      '-O2',
      '-I',
      c,
      '-o',
      harness,
      ...harnessSources,
      join(dir, 'glue_reference.c'),
      join(dir, 'reference.c'),
      '-lm',
    ]);
    const job = join(dir, 'job');
    const box = join(job, 'box');
    mkdirSync(box, { recursive: true });
    execFileSync('cc', ['-O2', '-I', c, '-o', join(box, 'worker'), join(fakes, 'fake_worker.c'), '-lpthread']);
    execFileSync('cc', ['-O2', '-I', c, '-o', join(dir, 'fake_probe'), join(fakes, 'fake_probe.c')]);
    // The stand-in ncu, in a folder of its own (as /opt/nvidia/nsight-compute is): runs the worker as its child,
    // as ncu does, and prints its CSV once the worker has exited, as ncu does with --page details, after resolving its
    // metrics: 2 s here. On an H200 the real one printed nothing to the harness, which gave the worker 1 s to exit.
    // Outside /tmp: the sandbox's private /tmp hides anything mounted below it (ncu lives in /opt or /usr/local).
    const ncuDir = mkdtempSync(join('/var/tmp', 'kf-nsight-compute-'));
    dirs.push(ncuDir);
    writeFileSync(join(ncuDir, 'ncu-details.csv'), SAMPLE);
    const prefix = ncuWorkerPrefix(join(ncuDir, 'ncu'), ncuKernelNames(facts));
    writeFileSync(
      join(ncuDir, 'ncu'),
      `#!/bin/sh\nshift ${prefix.length - 1}\n"$@"\nrc=$?\nsleep 2\ncat '${join(ncuDir, 'ncu-details.csv')}'\nexit $rc\n`,
    );
    chmodSync(join(ncuDir, 'ncu'), 0o755);
    for (const d of [dir, job, box, ncuDir]) chmodSync(d, 0o755);
    const cap = ncuCapability({ ncu: join(ncuDir, 'ncu'), params: join(dir, 'none'), env: {} });
    if (!cap.ok) throw new Error(cap.reason);
    const run = await runHarness({
      built: { dir, harness, workerObjects: [], probe: join(dir, 'fake_probe') },
      jobDir: job,
      boxDir: box,
      deviceId: 'cuda-rehearsal',
      plan: planText({
        problem: p,
        ranked: false,
        cuda: true,
        testCases: p.cases.test.slice(0, 1),
        benchCases: [{ name: 'b1', sizes: { n: 100_000 } }],
        seeds: [1n],
        benchSeed: 2n,
        timing: NCU_RUN_TIMING,
        exitWaitMs: NCU_EXIT_WAIT_MS,
      }),
      dataBytes: 800_000,
      maxTimingMs: NCU_RUN_TIMING.maxMs,
      cuda: true,
      sandboxHarness: false,
      workerPrefix: {
        argv: ncuWorkerPrefix(cap.ncu, ncuKernelNames(facts)),
        roBinds: cap.roots,
        tmpBytes: NCU_TMP_BYTES,
      },
    });
    expect(run.timedOut).toBe(false);
    expect(run.report?.verdict, `${run.failure ?? ''} ${run.stderr.slice(-400)}`).toBeDefined();
    const counters = ncuCountersOf(run);
    expect(counters.reason, run.stdout.slice(0, 400)).toMatch(/2 launches profiled; the longest: kf_tiled_gemm/);
    expect(counters.available).toBe(true);
  }, 180_000);
});
