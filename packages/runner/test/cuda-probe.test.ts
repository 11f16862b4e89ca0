// Issue 32 without a GPU: the trusted harness's cuda path end to end, against stand-ins for the cuda worker stub and
// the probe (test/fake-cuda/: the same wires, the shared data as "device memory", exported by fd as a memory pool's
// would be). What runs for real: the harness's probe start, pidfd_getfd of the worker's fd, its hand-over with
// SCM_RIGHTS, the keyed sum right after each reply and its check against the copy the checks read, the outside and
// baseline-outside series, and the report. Work after the reply is rejected or incorrect; without a probe the run says
// why. What it cannot test here: CUDA IPC itself, the events and the flush (bench/cuda.mjs on a GPU).
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { glueSource } from '../src/backends/c-abi/harness/glue.js';
import { planText, QUICK_TIMING } from '../src/harness/plan.js';
import { HarnessReportSchema } from '../src/backends/c-abi/report-json.js';
import { cSourceDir } from '../src/internal/paths.js';
import { sandboxArgv, sandboxAvailable } from '../src/sandbox/bwrap.js';
import { catalogue } from './helpers.js';

const hasCc = spawnSync('cc', ['--version']).status === 0;
const pidfdGetfd = (() => {
  const [maj, min] = (spawnSync('uname', ['-r'], { encoding: 'utf8' }).stdout || '0.0').split('.').map(Number);
  return (maj ?? 0) > 5 || ((maj ?? 0) === 5 && (min ?? 0) >= 6);
})();

describe.skipIf(!hasCc || !pidfdGetfd)('cuda: the harness ends each call on its probe (stand-ins, no GPU)', () => {
  let dir = '';
  const c = cSourceDir();
  const fakes = join(__dirname, 'fake-cuda');
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'kf-cuprobe-'));
    const p = catalogue.get('19_ReLU');
    if (!p) throw new Error('19_ReLU missing');
    writeFileSync(join(dir, 'glue_reference.c'), glueSource(p.signature, 'reference', 'kf_call_reference'));
    writeFileSync(join(dir, 'reference.c'), p.reference_c);
    const harness = readdirSync(c)
      .filter((f) => f.startsWith('harness_') && f.endsWith('.c'))
      .map((f) => join(c, f));
    execFileSync('cc', [
      '-O2',
      '-I',
      c,
      '-o',
      join(dir, 'harness'),
      ...harness,
      join(dir, 'glue_reference.c'),
      join(dir, 'reference.c'),
      '-lm',
    ]);
    execFileSync('cc', ['-O2', '-I', c, '-o', join(dir, 'fake_worker'), join(fakes, 'fake_worker.c'), '-lpthread']);
    execFileSync('cc', ['-O2', '-I', c, '-o', join(dir, 'fake_probe'), join(fakes, 'fake_probe.c')]);
    execFileSync('cc', ['-O2', '-I', c, '-o', join(dir, 'fake_probe_drift'), join(fakes, 'fake_probe.c')]);
    execFileSync('cc', ['-O2', '-I', c, '-o', join(dir, 'fake_probe_lowclock'), join(fakes, 'fake_probe.c')]);
    writeFileSync(
      join(dir, 'plan.txt'),
      planText({
        problem: p,
        ranked: true,
        cuda: true,
        testCases: p.cases.test.slice(0, 3),
        benchCases: [{ name: 'b1', sizes: { n: 200_000 } }],
        seeds: [12345n],
        benchSeed: 999n,
        timing: { ...QUICK_TIMING, maxMs: 1500 },
      }),
    );
    // Each worker under a shell that waits for it: the worker is then the launched process's child, as a sandbox's
    // pid 1 is bwrap's, and the harness finds it the same way.
    const launch = (mode: string) => `/bin/sh\0-c\0${join(dir, 'fake_worker')} ${mode}; :\0`;
    for (const mode of ['honest', 'late', 'scribble']) writeFileSync(join(dir, `${mode}.args`), launch(mode));
    // The same worker in the runner's own sandbox (bubblewrap, its own user, pid and IPC namespaces, pid 1): the
    // harness must take its fd across them, as it must a GPU worker's.
    if (sandboxAvailable()) {
      const box = join(dir, 'box');
      execFileSync('mkdir', ['-p', box]);
      execFileSync('cp', [join(dir, 'fake_worker'), join(box, 'worker')]);
      chmodSync(dir, 0o755);
      const argv = sandboxArgv(
        {
          workDir: box,
          writable: false,
          asPid1: true,
          limits: { cpuSeconds: 60, processes: 64, fileSize: 1 << 20, openFiles: 64 },
        },
        ['./worker', 'honest'],
      );
      writeFileSync(join(dir, 'sandboxed.args'), `${argv.join('\0')}\0`);
    }
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const harness = (candidate: string, probe: string | null) => {
    const r = spawnSync(join(dir, 'harness'), ['plan.txt', `${candidate}.args`, 'honest.args', '0'], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 120_000,
      stdio: ['ignore', 'pipe', 'pipe', 'ignore', 'ignore'],
      env: { PATH: '/usr/bin:/bin', ...(probe ? { KF_PROBE: join(dir, probe) } : {}) },
    });
    return HarnessReportSchema.parse(JSON.parse(r.stdout));
  };

  it('an honest worker: accepted, the probe read both workers, outside times to its answer beside the events', () => {
    const r = harness('honest', 'fake_probe');
    expect(r.verdict, r.message).toBe('accepted');
    expect(r.probe).toMatchObject({ candidate: true, baseline: true, why: '' });
    expect(r.probe?.max_sm_mhz).toBe(1980);
    const b = r.bench[0];
    expect(b?.outside?.length).toBe(b?.optimized.length);
    expect(b?.baseline_outside?.length).toBe(b?.baseline.length);
    // Every outside time holds its call's events (the outside clock runs around the whole call and the probe).
    for (const [i, o] of (b?.outside ?? []).entries()) expect(o + 1e-3).toBeGreaterThanOrEqual(b?.optimized[i] ?? 0);
  }, 180_000);

  it.skipIf(!sandboxAvailable())(
    'a worker in the bubblewrap sandbox: its fd is taken across the namespaces',
    () => {
      // As root the harness drops each worker to nobody, as the runner does: taking its fd needs the harness's rights.
      const uid = process.getuid?.() === 0 ? '65534' : '0';
      const r = spawnSync(join(dir, 'harness'), ['plan.txt', 'sandboxed.args', 'honest.args', uid], {
        cwd: dir,
        encoding: 'utf8',
        timeout: 120_000,
        stdio: ['ignore', 'pipe', 'pipe', 'ignore', 'ignore'],
        env: { PATH: '/usr/bin:/bin', KF_PROBE: join(dir, 'fake_probe') },
      });
      const rep = HarnessReportSchema.parse(JSON.parse(r.stdout));
      expect(rep.verdict, rep.message).toBe('accepted');
      expect(rep.probe, rep.probe?.why).toMatchObject({ candidate: true, baseline: true });
    },
    180_000,
  );

  it('calls under 75% of the top SM clock: their pairs are taken again, then kept and counted', () => {
    const r = harness('honest', 'fake_probe_lowclock');
    expect(r.verdict, r.message).toBe('accepted');
    const b = r.bench[0];
    expect(r.probe?.min_sm_mhz).toBe(990);
    // Every pair is low: retaken up to half the pairs kept plus two, the rest kept; the kept ones are the samples.
    expect(b?.low_clock_retaken).toBeGreaterThanOrEqual(2);
    expect(b?.low_clock_kept).toBe(b?.ratios?.length);
    expect(b?.optimized.length).toBe(b?.low_clock_kept);
    expect(b?.low_clock_retaken).toBeLessThanOrEqual(Math.floor((b?.low_clock_kept ?? 0) / 2) + 2);
    const honest = harness('honest', 'fake_probe');
    expect(honest.bench[0]?.low_clock_retaken).toBe(0);
  }, 180_000);

  it('a probe sum that the copied outputs do not give: rejected (the harness compares them on every call)', () => {
    const r = harness('honest', 'fake_probe_drift');
    expect(r.verdict).toBe('rejected');
    expect(r.message).toMatch(/outputs changed after the call returned/);
  }, 180_000);

  it('outputs still changing after the reply: never accepted', () => {
    // The worker's thread rewrites y[0] for 0.5 ms after each reply: the probe's sum and its copy see two values
    // (rejected) or one wrong value (incorrect), depending on when each ran on this machine.
    const r = harness('scribble', 'fake_probe');
    expect(['rejected', 'incorrect'], r.message).toContain(r.verdict);
  }, 180_000);

  it('outputs written only after the reply: never accepted (the probe copied what was there)', () => {
    const r = harness('late', 'fake_probe');
    expect(r.verdict).not.toBe('accepted');
  }, 180_000);

  it('without the probe program: timed by the events alone, and the report says why', () => {
    const r = harness('honest', null);
    expect(r.verdict, r.message).toBe('accepted');
    expect(r.probe).toMatchObject({ candidate: false, baseline: false });
    expect(r.probe?.why).toMatch(/no probe program/);
  }, 180_000);
});
