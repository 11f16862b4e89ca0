// The runner's promise that evaluation is always available and its secrets stay secret: a kernel cannot
// stall it, outlive its job, read the plan, and a correct kernel is never called a cheat (issue 10).
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { type EvaluationJobPayload, timingConditions } from '@kernelforge/sdk';
import { describe, expect, it } from 'vitest';
import { RETAKE_WAIT_SHARE } from '../src/evaluate/judge.js';
import { QUICK_TIMING, type TimingRules } from '../src/harness/plan.js';
import { evaluate } from '../src/index.js';
import { catalogue, cpuDevice, fixture, payload, run, workDir } from './helpers.js';

/** Live processes on the machine whose name (comm) is `name` (a killed one may linger as a zombie until its
    new parent reaps it: it holds nothing, not even its pipes). */
function processesNamed(name: string): number[] {
  const out: number[] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
      if (state !== 'Z' && readFileSync(`/proc/${d}/comm`, 'utf8').trim() === name) out.push(Number(d));
    } catch {
      /* gone */
    }
  }
  return out;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const relu =
  '#include <stdint.h>\nvoid solution(const float* x, float* y, int64_t n) { for (int64_t i = 0; i < n; i++) y[i] = x[i] > 0 ? x[i] : 0; }';

function customRelu(source: string, benchN: number): EvaluationJobPayload {
  return {
    ...payload('relu small', source),
    custom_problem: {
      signature: [
        { name: 'x', type: 'f32*', role: 'in', shape: ['n'] },
        { name: 'y', type: 'f32*', role: 'out', shape: ['n'] },
        { name: 'n', type: 'i64', role: 'size' },
      ],
      reference_source: relu,
      language: 'c',
      cases: { test: [{ name: 't1000', sizes: { n: 1000 } }], benchmark: [{ name: 'b', sizes: { n: benchN } }] },
      cost: { flops: 'n', bytes: '8*n' },
    },
  };
}

async function expectHealthy() {
  const state = await run('19_ReLU', fixture('./candidates/relu_omp.c'));
  expect(state.verdict, state.message).toBe('accepted');
}

describe('a kernel that attacks the sandbox', () => {
  const attack = (mark: string) => `#define KF_MARK "${mark}"\n${fixture('./cheats/attack_init.c')}`;
  const cases: Array<[string, (src: string) => EvaluationJobPayload]> = [
    ['benchmark', (src) => payload('19_ReLU', src)],
    ['ranked', (src) => payload('19_ReLU', src, { mode: 'ranked', secret_seed: 's', target_id: 'sub-1' })],
    ['custom (sandboxed harness)', (src) => customRelu(src, 100_000)],
  ];
  for (const [name, make] of cases) {
    it(`${name}: taking over the sandbox's init or orphaning itself ends in a verdict, leaves no process, and the next kernel is accepted`, async () => {
      const mark = `kfo${randomBytes(5).toString('hex')}`; // comm holds 15 characters
      const started = Date.now();
      // The quick rules with a 2 s call deadline (5 s in them): the attack's first call never returns, and what is
      // under test is what is left once it is ended, not how long the deadline is.
      const state = await evaluate(make(attack(mark)), {
        problems: catalogue,
        device: cpuDevice(),
        workDir,
        timing: { ...QUICK_TIMING, callTimeoutMs: 2_000 },
      });
      expect(['timeout', 'runtime_error'], state.message).toContain(state.verdict);
      // The call deadline plus start-up, not the whole-run limit.
      expect(Date.now() - started).toBeLessThan(45_000);
      await sleep(200);
      expect(processesNamed(mark)).toEqual([]);
      await expectHealthy();
    }, 120_000);
  }
});

describe('the candidate sees nothing secret', () => {
  it('a kernel that looks for the plan, seeds or hidden sizes anywhere it can read finds nothing', async () => {
    for (const extra of [{}, { mode: 'ranked' as const, secret_seed: 'board', target_id: 'sub-2' }]) {
      const state = await run('19_ReLU', fixture('./cheats/read_plan.c'), extra);
      expect(state.verdict, state.message).toBe('accepted');
    }
  }, 120_000);

  it('ranked seeds differ per submission and never appear in a report', async () => {
    const { seedsFor } = await import('../src/evaluate/seeds.js');
    const a = seedsFor('ranked', 'board', 'sub-a');
    const b = seedsFor('ranked', 'board', 'sub-b');
    expect(a.seeds[0]).not.toBe(b.seeds[0]);
    expect(a.benchSeed).not.toBe(b.benchSeed);
    expect(seedsFor('ranked', 'board', 'sub-a')).toEqual(a);
    const state = await run('19_ReLU', relu, { mode: 'ranked', secret_seed: 'board', target_id: 'sub-a' });
    const text = JSON.stringify(state);
    for (const s of [...a.seeds, a.benchSeed]) expect(text).not.toContain(String(s));
    expect(state.correctness!.cases.some((c) => 'seed' in c)).toBe(false);
  }, 120_000);
});

describe('a correct kernel is never called a cheat', () => {
  // Enough samples for the clock check to apply; short calls, where a round trip's wake-ups weigh most.
  const rules: TimingRules = { ...QUICK_TIMING, minSamples: 30, minMs: 0, maxMs: 2_000 };
  for (const n of [65_536, 16_384, 1_024]) {
    it(`a plain ReLU on a custom problem with a ${n}-element benchmark case is accepted, 3 runs of 3`, async () => {
      for (let i = 0; i < 3; i++) {
        const state = await evaluate(customRelu(relu, n), {
          problems: catalogue,
          device: cpuDevice(),
          workDir,
          timing: rules,
        });
        expect(state.verdict, state.message).toBe('accepted');
      }
    }, 120_000);
  }
});

describe('one timing at a time per host and device', () => {
  it('waits for another runner holding the device lock, and records the lock and the load with the result', async () => {
    const { spawn } = await import('node:child_process');
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { timingLockPath } = await import('../src/sandbox/timing-lock.js');
    process.env.KFORGE_TIMING_LOCK_DIR = mkdtempSync(join(tmpdir(), 'kforge-lock-'));
    // Another "runner" times on the same device until told to stop (its stdin closed), some 2 s after this one
    // reports its wait: this lane's core no longer sleeps through a fixed 20 s beside the other lane.
    const holder = spawn('flock', ['-x', timingLockPath(cpuDevice().id), 'cat'], {
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    try {
      await sleep(300);
      const started = Date.now();
      let waitSeenAt = 0;
      const state = await evaluate(payload('19_ReLU', fixture('./candidates/relu_omp.c')), {
        problems: catalogue,
        device: cpuDevice(),
        workDir,
        timing: 'quick',
        onProgress: (p) => {
          if (p.stage !== 'lock' || waitSeenAt) return;
          waitSeenAt = Date.now();
          setTimeout(() => holder.stdin?.end(), 2_000);
        },
      });
      expect(waitSeenAt, 'the wait for the lock was reported').toBeGreaterThan(0);
      // It timed only once the other let go, and its result says how long it waited.
      expect(Date.now() - waitSeenAt).toBeGreaterThan(1_900);
      expect(state.verdict, state.message).toBe('accepted');
      const load = state.benchmarking_result!.load!;
      expect(load.lock).toBe(true);
      expect(load.lock_wait_ms).toBeGreaterThan(1_500);
      expect(load.lock_wait_ms!).toBeLessThanOrEqual(Date.now() - started);
      expect(load.cores).toBeGreaterThan(0);
      expect(load.outside_cores).toBeGreaterThanOrEqual(0);
    } finally {
      holder.kill();
      delete process.env.KFORGE_TIMING_LOCK_DIR;
    }
  }, 120_000);
});

describe('a ranked result timed under heavy outside load', () => {
  it('is timed again, then kept flagged for review as noisy, never ranked silently', async () => {
    const { spawn } = await import('node:child_process');
    const { availableParallelism } = await import('node:os');
    // Outside the sandbox and the job's cgroup: one busy loop per core this machine has (read at run time).
    const burners = Array.from({ length: availableParallelism() }, () =>
      spawn('sh', ['-c', 'while :; do :; done'], { stdio: 'ignore' }),
    );
    try {
      await sleep(300);
      // Quick rules, but with re-timing and retaking on (quick turns both off: its numbers are unstable by design).
      const state = await run(
        '19_ReLU',
        fixture('./candidates/relu_omp.c'),
        { mode: 'ranked', secret_seed: 'load-secret', target_id: 'sub-load' },
        { ...QUICK_TIMING, retime: true, retakeWaitShare: RETAKE_WAIT_SHARE, retimeWaitMs: 2_000 },
      );
      expect(state.verdict, state.message).toBe('accepted');
      const result = state.benchmarking_result!;
      expect(result.load?.noisy, JSON.stringify(result.load)).toBe(true);
      expect(result.load?.timed_runs).toBe(2);
      // Timed again later, not at once: it waited for a quiet second, which never came (a busy loop on every core
      // the whole time), so it waited its bound and says so.
      expect(result.load?.retime_wait_ms).toBeGreaterThanOrEqual(1_900);
      expect(result.load!.retime_wait_ms!).toBeLessThan(10_000);
      expect(timingConditions(result.load)).toMatch(
        // Both timings ran under load, so the two are combined (backend.ts retimedState), the wait still said.
        /timed twice by fresh processes, the second after waiting [\d.]+ s for the machine to quiet \(/,
      );
      expect(result.load!.outside_cores).toBeGreaterThan(0.5);
      expect(result.flagged_for_review).toBe(true);
      expect(result.review_reasons.join('\n')).toMatch(/times may be noisy/);
      // A busy loop on every core: the calls wait for a cpu, and the pairs that waited are counted, never dropped
      // (issue 31: a candidate can make its own calls wait, so a wait must not decide which pairs count).
      expect(result.load?.waited_pairs_kept, JSON.stringify(result.load)).toBeGreaterThan(0);
      expect(result.load?.retaken_pairs ?? 0).toBe(0);
    } finally {
      for (const b of burners) b.kill('SIGKILL');
    }
  }, 180_000);

  it('a ranked result is timed by two fresh processes: the lower speedup, an interval holding both', async () => {
    const state = await run(
      '19_ReLU',
      fixture('./candidates/relu_omp.c'),
      { mode: 'ranked', secret_seed: 'twice-secret', target_id: 'sub-twice' },
      // Quick rules with re-timing on and enough pairs for an interval.
      { ...QUICK_TIMING, retime: true, minSamples: 12 },
    );
    expect(state.verdict, state.message).toBe('accepted');
    const result = state.benchmarking_result!;
    expect(result.load?.timed_runs).toBe(2);
    // A first run under heavy load is timed again later and replaced, not combined (the test above): the published
    // run then says how long it waited (retime_wait_ms), or is itself noisy.
    if (result.load?.noisy || result.load?.retime_wait_ms !== undefined) return;
    const runs = result.load?.run_speedups ?? [];
    expect(runs, JSON.stringify(result.load)).toHaveLength(2);
    expect(result.speedup).toBeCloseTo(Math.min(...runs), 3);
    const [lo, hi] = result.speedup_interval!;
    for (const s of runs) {
      expect(s).toBeGreaterThanOrEqual(lo);
      expect(s).toBeLessThanOrEqual(hi);
    }
    expect(result.load?.run_times).toHaveLength(2);
    expect(timingConditions(result.load)).toMatch(/timed twice by fresh processes/);
  }, 180_000);

  it("a session's attempt (benchmark mode) is timed once; a test run, a submission in benchmark mode, twice", async () => {
    const rules = { ...QUICK_TIMING, retime: true, minSamples: 12 };
    const state = await run('19_ReLU', fixture('./candidates/relu_omp.c'), {}, rules);
    expect(state.verdict, state.message).toBe('accepted');
    expect(state.benchmarking_result?.load?.timed_runs).toBe(1);
    // Identical 19_ReLU as a test run timed once read 0.980x [0.973, 0.993] and 1.03x faster on a quiet Zen 4 VM: one
    // process's interval does not hold what varies between processes (docs/evaluation.md, "Timed twice").
    const test = await run(
      '19_ReLU',
      fixture('./candidates/relu_omp.c'),
      { kind: 'submission', target_id: 'test-run-twice' },
      rules,
    );
    expect(test.verdict, test.message).toBe('accepted');
    const result = test.benchmarking_result!;
    expect(result.load?.timed_runs).toBe(2);
    if (result.load?.noisy || result.load?.retime_wait_ms !== undefined) return;
    const runs = result.load?.run_speedups ?? [];
    expect(runs, JSON.stringify(result.load)).toHaveLength(2);
    const [lo, hi] = result.speedup_interval!;
    for (const s of runs) {
      expect(s).toBeGreaterThanOrEqual(lo);
      expect(s).toBeLessThanOrEqual(hi);
    }
  }, 180_000);
});
