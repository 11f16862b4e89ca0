import { describe, expect, it } from 'vitest';
import { refreshCpuPeaks } from '../src/devices/remeasure.js';
import { evaluate, peakRecheck } from '../src/evaluate/evaluate.js';
import { catalogue, cpuDevice, fixture, payload, run, workDir } from './helpers.js';

describe('a correct candidate', () => {
  it('a fast ReLU is accepted with times, speedup and roofline figures (real default timing rules)', async () => {
    const state = await run('19_ReLU', fixture('./candidates/relu_omp.c'), {}, 'default');
    expect(state.verdict, state.message).toBe('accepted');
    const r = state.benchmarking_result!;
    expect(r.optimized_time).toBeGreaterThan(0);
    expect(r.baseline_time).toBeGreaterThan(0);
    // Paired: the speedup is the median of the pairs' ratios, inside its 95% interval; the times are each side's
    // median, so their ratio is near it but not equal to it.
    const [lo, hi] = r.speedup_interval ?? [Number.NaN, Number.NaN];
    expect(r.speedup).toBeGreaterThanOrEqual(lo);
    expect(r.speedup).toBeLessThanOrEqual(hi);
    expect(r.optimized_time_interval?.[0]).toBeLessThanOrEqual(r.optimized_time);
    expect(r.optimized_time_interval?.[1]).toBeGreaterThanOrEqual(r.optimized_time);
    expect(r.gbps).toBeGreaterThan(1);
    expect(r.fraction_of_peak).toBeGreaterThan(0);
    // The share of each side's runnable time spent waiting for a cpu over the timed samples (schedstat) is recorded.
    for (const share of [r.load?.wait_share, r.load?.baseline_wait_share]) {
      expect(share).toBeGreaterThanOrEqual(0);
      expect(share).toBeLessThanOrEqual(1);
    }
    // The core budget both sides ran on (the cpus free when the evaluation began) is stated with the figures.
    expect(r.load?.budget_cores).toBeGreaterThanOrEqual(1);
    expect(r.load?.budget_cores).toBeLessThanOrEqual(r.load!.cores);
    expect(r.load?.budget_cpus).toMatch(/^\d+(-\d+)?(,\d+(-\d+)?)*$/);
    const c = r.cases[0]!;
    expect(c.optimized.samples).toBeGreaterThanOrEqual(10);
    expect(c.optimized.samples * c.optimized.mean_ms).toBeGreaterThanOrEqual(100);
    expect(c.inside_ms).toBeGreaterThan(0);
    expect(state.environment?.flags).toEqual(expect.arrayContaining(['-O3', '-march=native', '-fopenmp']));
    expect(state.environment?.compiler_version).toMatch(/\d+\.\d+/);
    expect(state.compile?.ok).toBe(true);
    expect(cpuDevice().peaks.source).toBe('measured');
  }, 120_000);

  it('a blocked matmul is accepted with GFLOP/s', async () => {
    const state = await run('1_Square_matrix_multiplication_', fixture('./candidates/matmul_omp.c'));
    expect(state.verdict, state.message).toBe('accepted');
    expect(state.benchmarking_result!.gflops).toBeGreaterThan(1);
  }, 120_000);

  it('a C++ candidate compiles with c++ and is accepted', async () => {
    const state = await run('19_ReLU', fixture('./candidates/relu.cpp'), { language: 'cpp' });
    expect(state.verdict, state.message).toBe('accepted');
    expect(state.compile?.compiler).toMatch(/^c\+\+/);
  }, 120_000);

  it('ranked mode returns no stdout or stderr, uses the hidden sizes and shows neither them nor a seed', async () => {
    const state = await run('19_ReLU', fixture('./candidates/relu_omp.c'), {
      mode: 'ranked',
      secret_seed: 'board-secret',
    });
    expect(state.verdict, state.message).toBe('accepted');
    expect(state.stdout).toBeUndefined();
    expect(state.stderr).toBeUndefined();
    const c = state.benchmarking_result!.cases[0]!;
    // Timed on the hidden size (the bandwidth figure is 8 bytes per element of n = 9,000,011 over the time)...
    expect((c.gbps * c.optimized.median_ms * 1e6) / 8).toBeCloseTo(9000011, -3);
    // ...which the report never shows, nor any ranked seed.
    expect(c.sizes).toEqual({});
    expect(JSON.stringify(state)).not.toContain('9000011');
    expect(state.correctness!.cases.every((k) => k.seed === undefined)).toBe(true);
  }, 120_000);

  it('a compile error comes back as compile_error with the log', async () => {
    const state = await run('19_ReLU', 'void solution(const float* x, float* y, long n) { y[0] = nope; }');
    expect(state.verdict).toBe('compile_error');
    expect(state.compile?.log).toContain('nope');
  }, 60_000);

  it('a crash is a runtime_error', async () => {
    const state = await run(
      '19_ReLU',
      '#include <stdint.h>\nvoid solution(const float* x, float* y, int64_t n) { *(volatile int*)0 = 1; }',
    );
    expect(state.verdict).toBe('runtime_error');
    expect(state.message).toMatch(/signal 11|SIGSEGV|Segmentation/i);
  }, 60_000);

  it('a nondeterministic candidate is caught', async () => {
    const src =
      '#include <stdint.h>\nstatic int calls;\nvoid solution(const float* x, float* y, int64_t n) { calls++; for (int64_t i = 0; i < n; i++) y[i] = (x[i] > 0 ? x[i] : 0) + (calls % 2) * 1e-7f; }';
    const state = await run('19_ReLU', src);
    expect(state.verdict, state.message).toBe('nondeterministic');
  }, 60_000);
});

describe('a custom problem', () => {
  it('runs its untrusted reference inside the sandbox too and accepts a correct candidate', async () => {
    const { evaluate } = await import('../src/index.js');
    const { catalogue, cpuDevice, workDir } = await import('./helpers.js');
    const state = await evaluate(
      {
        kind: 'attempt',
        target_id: 'c1',
        mode: 'benchmark',
        problem_name: 'double it',
        device: 'cpu-x86_64',
        language: 'c',
        source:
          '#include <stdint.h>\nvoid solution(const float* x, float* y, int64_t n) { for (int64_t i = 0; i < n; i++) y[i] = x[i] + x[i]; }',
        custom_problem: {
          signature: [
            { name: 'x', type: 'f32*', role: 'in', shape: ['n'] },
            { name: 'y', type: 'f32*', role: 'out', shape: ['n'] },
            { name: 'n', type: 'i64', role: 'size' },
          ],
          reference_source:
            '#include <stdint.h>\nvoid solution(const float* x, float* y, int64_t n) { for (int64_t i = 0; i < n; i++) y[i] = 2 * x[i]; }',
          language: 'c',
          cases: {
            test: [
              { name: 't7', sizes: { n: 7 } },
              { name: 't1001', sizes: { n: 1001 } },
            ],
            // 12M elements: 96 MiB of shared data, more than the sandbox's 64 MiB default file-size limit
            // (the sandboxed harness sizes its shared memory file under that limit).
            benchmark: [{ name: 'b', sizes: { n: 12_000_000 } }],
          },
          cost: { flops: 'n', bytes: '8*n' },
        },
      },
      { problems: catalogue, device: cpuDevice(), workDir, timing: 'quick' },
    );
    expect(state.verdict, state.message).toBe('accepted');
  }, 120_000);
});

describe('peaks measured on a busy machine', () => {
  it('a kernel above an understated peak gets a fresh measurement, not an implausible verdict', async () => {
    const first = await run('19_ReLU', fixture('./candidates/relu_omp.c'));
    expect(first.verdict, first.message).toBe('accepted');
    // A device whose bandwidth peak was measured while the machine was busy: an eighth of what this kernel reached.
    // (Half was too little: beside other work the second run was once under 0.625x the first's speed, so within
    // the 1.25x margin of the understated peak, and nothing called for a fresh measurement.)
    const device = structuredClone(cpuDevice());
    device.peaks.bandwidth_gbps = first.benchmarking_result!.gbps! / 8;
    const understated = device.peaks.bandwidth_gbps;
    // Measured again at once, with no wait for a quiet second before each of its runs (up to 5 s each, 2 or 3 runs,
    // and CI's busy machine is never quiet): what is under test is that the peaks are measured again and the result
    // judged anew.
    const state = await evaluate(payload('19_ReLU', fixture('./candidates/relu_omp.c')), {
      problems: catalogue,
      device,
      workDir,
      timing: 'quick',
      peakRecheckWaitMs: 0,
    });
    expect(device.peaks.bandwidth_gbps).toBeGreaterThan(understated);
    expect(state.verdict, state.message).toBe('accepted');
  }, 120_000);

  it('what calls for a fresh measurement: above the peak at once; flagged near it, at most every 10 minutes', () => {
    const flagged = (reasons: string[]) =>
      ({ verdict: 'accepted', benchmarking_result: { review_reasons: reasons } }) as unknown as Parameters<
        typeof peakRecheck
      >[0];
    expect(peakRecheck({ verdict: 'implausible', benchmarking_result: null })).toBe('now');
    expect(peakRecheck(flagged(['case r1 reaches 97% of peak']))).toBe('throttled');
    expect(peakRecheck(flagged(['speedup 14.2x over the reference']))).toBeNull();
    expect(peakRecheck(flagged([]))).toBeNull();
    const near = (fraction: number) =>
      ({
        verdict: 'accepted',
        benchmarking_result: { review_reasons: [], fraction_of_peak: fraction },
      }) as unknown as Parameters<typeof peakRecheck>[0];
    expect(peakRecheck(near(0.8))).toBe('throttled');
    expect(peakRecheck(near(0.5))).toBeNull();
  });

  it('a throttled re-measurement runs once per interval', async () => {
    const device = structuredClone(cpuDevice());
    device.peaks.bandwidth_gbps = 1;
    // One run at once (no wait for a quiet second, no retry): the throttle is what is under test, not the wait, which
    // on a busy machine took 3 tries of up to 10 s each (38 s in CI beside the product lane).
    const once = { minIntervalMs: 60_000, tries: 1, waitMs: 0 };
    expect(await refreshCpuPeaks(device, once)).toBe(true);
    device.peaks.bandwidth_gbps = 1;
    expect(await refreshCpuPeaks(device, once)).toBe(false);
    expect(device.peaks.bandwidth_gbps).toBe(1);
  }, 60_000);
});
