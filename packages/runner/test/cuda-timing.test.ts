// Issue 32 without a GPU: the trusted bound on cuda event times (cuda-trust.ts and the judge), the probe's keyed
// checksum and low-clock rule (c/kf_probe.h, on the host: the same source nvcc compiles for the device), the device
// peaks' parsing and fallback, the plan's cuda lines, and every new cuda source compiling with nvcc (the stub, the
// probe, the peaks program and each hostile kernel linked with the stub as a candidate is).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Device } from '@kernelforge/sdk';
import { describe, expect, it } from 'vitest';
import { cudaPeaksFrom, measureCudaPeaks, parseCudaPeaks } from '../src/devices/cuda-peaks.js';
import { stagedTrustVerdict, TRUST_REJECT_SHARE, trustGap, trustVerdict } from '../src/evaluate/cuda-trust.js';
import { judgeTimed, type TimedCase } from '../src/evaluate/judge.js';
import { cudaLines, CUDA_BUSY_US } from '../src/harness/plan.js';
import { HarnessReportSchema } from '../src/backends/c-abi/report-json.js';
import { cSourceDir } from '../src/internal/paths.js';

const has = (cmd: string, args: string[]) => {
  try {
    execFileSync(cmd, args, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};
const hasNvcc = has('nvcc', ['--version']);

/** A deterministic noise source (the tests must not depend on luck). */
function noise(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32 - 0.5;
  };
}

/** n samples around `ms` with +-`jitter` ms. */
function series(n: number, ms: number, jitter: number, seed: number): number[] {
  const r = noise(seed);
  return Array.from({ length: n }, () => ms + jitter * r());
}

const h100: Device = {
  id: 'cuda-H100',
  kind: 'cuda',
  name: 'NVIDIA H100 80GB HBM3',
  peaks: { bandwidth_gbps: 3350, fp32_gflops: 67_000, source: 'table' },
  available: true,
  runners: 1,
  languages: ['cuda'],
};

/** A ReLU case as the cuda harness reports it: events' times, and outside times to the probe's answer. */
function reluCase(opts: { candInside: number; candTrue: number; n?: number; seed?: number }): TimedCase {
  const n = opts.n ?? 200;
  const seed = opts.seed ?? 1;
  const roundTrip = 0.03; // RUN's round trip and the probe, beyond the call (ms)
  const baseline = series(n, 0.0215, 0.0008, seed);
  const rb = noise(seed + 7);
  const baselineOutside = baseline.map((b) => b + roundTrip + 0.004 * rb());
  const trueTimes = series(n, opts.candTrue, 0.0008, seed + 1);
  const optimized = trueTimes.map((t) => (t * opts.candInside) / opts.candTrue);
  const rc = noise(seed + 99);
  const outside = trueTimes.map((t) => t + roundTrip + 0.004 * rc());
  return {
    name: 'ranked1',
    sizes: { n: 9_000_011 },
    optimized,
    baseline,
    flagged: 0,
    inside: optimized,
    ratios: optimized.map((o, i) => (baseline[i] as number) / o),
    outside,
    baselineOutside,
    bytes: 9_000_011 * 8,
    flops: 9_000_011,
    cacheCold: true,
  };
}

const judge = (c: TimedCase, probe = { candidate: true, baseline: true, why: '' }) =>
  judgeTimed({ device: h100, ranked: true, cases: [c], timedRuns: 1, baselineName: 'the reference', probe });

describe('cuda: the trusted end of a call bounds the events (cuda-trust.ts)', () => {
  it('identical honest code: no excess, accepted at 1.00x, inside and outside both shown', () => {
    const c = reluCase({ candInside: 0.0215, candTrue: 0.0215, seed: 3 });
    const g = trustGap({
      inside: c.optimized,
      outside: c.outside ?? [],
      baselineInside: c.baseline,
      baselineOutside: c.baselineOutside ?? [],
    });
    expect(trustVerdict('ranked1', 0.0215, g)).toEqual({ kind: 'clean' });
    const j = judge(c);
    expect(j.verdict, j.message).toBe('accepted');
    expect(Math.abs(j.result.speedup - 1)).toBeLessThan(0.02);
    const rc = j.result.cases[0];
    expect(rc?.inside_ms).toBeCloseTo(0.0215, 3);
    expect(rc?.outside_ms).toBeGreaterThan(0.045); // to the probe's answer: the round trip and the probe
    expect(j.result.review_reasons.join(' ')).not.toMatch(/trusted end/);
  });

  it('events that claim a third of the time: rejected (rewritten events or synchronize)', () => {
    const c = reluCase({ candInside: 0.007, candTrue: 0.0215, seed: 5 });
    const j = judge(c);
    expect(j.verdict).toBe('rejected');
    expect(j.message).toMatch(/trusted end of the call/);
  });

  it('events that hide a little: the excess beyond doubt is added back, the speedup falls to about 1.00x', () => {
    // 15% hidden: under the rejection share, so corrected.
    const c = reluCase({ candInside: 0.0215 * 0.85, candTrue: 0.0215, seed: 11 });
    expect(0.15).toBeLessThan(TRUST_REJECT_SHARE);
    const forgedSpeedup = judge({ ...c, outside: undefined, baselineOutside: undefined }).result.speedup;
    expect(forgedSpeedup).toBeGreaterThan(1.15); // the defence removed: the forged figure stands
    const j = judge(c);
    expect(j.verdict, j.message).toBe('accepted');
    expect(j.result.speedup).toBeLessThan(1.02);
    expect(j.result.speedup).toBeGreaterThan(0.95);
    expect(j.result.review_reasons.join(' ')).toMatch(/added to its time/);
  });

  it('without the probe on the candidate: flagged for review, and no bound applied', () => {
    // Events that hide 15%: without the probe nothing bounds them (the outside times, to the reply, are shown).
    const forged = reluCase({ candInside: 0.0215 * 0.85, candTrue: 0.0215, seed: 13 });
    const j = judge({ ...forged, baselineOutside: undefined }, { candidate: false, baseline: true, why: 'no IPC' });
    expect(j.verdict).toBe('accepted');
    expect(j.result.cases[0]?.outside_ms).toBeGreaterThan(0.045);
    expect(j.result.speedup).toBeGreaterThan(1.15);
    expect(j.result.flagged_for_review).toBe(true);
    expect(j.result.review_reasons.join(' ')).toMatch(/without the harness's probe/);
  });

  it('pairs kept with a low SM clock are flagged for review', () => {
    const c = reluCase({ candInside: 0.0215, candTrue: 0.0215, seed: 17 });
    expect(judge(c).result.review_reasons.join(' ')).not.toMatch(/SM clock/);
    const j = judge({ ...c, lowClockKept: 3 });
    expect(j.verdict).toBe('accepted');
    expect(j.result.review_reasons.join(' ')).toMatch(/3 timed pairs ran with the GPU's SM clock under 75%/);
  });

  it("stagedTrustVerdict (torch's untimed prepare + fetch): a few percent of the copies is the processes', work moved there is not", () => {
    // Copies with noise that only adds time (load), a few large outliers on the baseline's side as on a loaded VM.
    const steps = (base: number, n: number, seed: number, outliers = 0) =>
      Array.from(
        { length: n },
        (_, i) => base * (1 + 0.02 * Math.abs(Math.sin(seed + i * 1.7))) + (i < outliers ? 40 : 0),
      );
    // A GPU's copies: 3 ms each side, the candidate's 3% slower (another process's memory), calls of 20 us: clean.
    expect(stagedTrustVerdict('c', 0.02, steps(3.09, 30, 1), steps(3, 30, 2)).kind).toBe('clean');
    // The result computed in fetch (2 ms of work on the cpu's 2.9 ms of copies), the baseline's steps with 40 ms
    // outliers (which left the medians' intervals overlapping): rejected.
    const lazy = stagedTrustVerdict('c', 0.2, steps(4.9, 12, 3), steps(2.9, 12, 4, 4));
    expect(lazy.kind).toBe('rejected');
    expect(lazy.kind === 'rejected' && lazy.reason).toMatch(/work moved out of the timed call/);
    // 8% more on the copies: beyond the 5% slack, under twice it: the excess goes on the time, flagged.
    const more = stagedTrustVerdict('c', 1, steps(3.24, 30, 5), steps(3, 30, 6));
    expect(more.kind === 'corrected' && more.addMs).toBeCloseTo(0.24, 1);
    // Two samples a side: never a rejection, the excess added instead.
    const few = stagedTrustVerdict('c', 0.2, steps(4.9, 2, 7), steps(2.9, 2, 8));
    expect(few.kind === 'corrected' && few.addMs).toBeGreaterThan(1.9);
  });

  it("stagedTrustVerdict on a cpu's process cpu, call by call: two processes' copies differ by a third, work moved there doubles them", () => {
    const steps = (base: number, n: number, seed: number) =>
      Array.from({ length: n }, (_, i) => base * (1 + 0.02 * Math.abs(Math.sin(seed + i * 1.7))));
    // The honest twin 34% above the baseline for a whole run (seen on a loaded Zen 4 VM): clean on the cpu's clock,
    // where the same excess on a GPU's wall clock would be flagged.
    expect(stagedTrustVerdict('c', 0.2, steps(1.072, 12, 1), steps(0.8, 12, 2), 'cpu').kind).toBe('clean');
    expect(stagedTrustVerdict('c', 0.2, steps(1.072, 12, 1), steps(0.8, 12, 2), 'wall').kind).not.toBe('clean');
    // lazy_fetch.py computing in fetch: its steps at twice the baseline's (seen +99% to +118%): rejected.
    const lazy = stagedTrustVerdict('c', 0.14, steps(2.0, 12, 3), steps(1.0, 12, 4), 'cpu');
    expect(lazy.kind === 'rejected' && lazy.reason).toMatch(/work moved out of the timed call/);
    // 60% more: past the slack (50%), under 1.4 times it: the excess is added, flagged.
    const more = stagedTrustVerdict('c', 0.2, steps(1.6, 12, 5), steps(1.0, 12, 6), 'cpu');
    expect(more.kind === 'corrected' && more.addMs).toBeCloseTo(0.6, 1);
    // Load that comes and goes: every other round 1.2 ms more on both sides of it. The cheat's steps are compared call
    // by call, so the load cancels: rejected. Fastest against fastest, the baseline's spread (0.6 ms) would have
    // been allowed, and the cheat only flagged.
    const load = (i: number) => (i % 2 ? 1.2 : 0);
    const rounds = (base: number) => Array.from({ length: 12 }, (_, i) => base + load(i));
    expect(stagedTrustVerdict('c', 0.14, rounds(2.0), rounds(1.0), 'cpu').kind).toBe('rejected');
    expect(stagedTrustVerdict('c', 0.14, rounds(2.0), rounds(1.0), 'wall').kind).toBe('corrected');
    // The honest twin 30% above, each side caught by the load in rounds of its own: clean.
    const own = (base: number, k: number) => Array.from({ length: 12 }, (_, i) => base + (i % 3 === k ? 1.2 : 0));
    expect(stagedTrustVerdict('c', 0.14, own(1.3, 0), own(1.0, 1), 'cpu').kind).toBe('clean');
    // Work the candidate adds to its own steps only raises the median of the differences.
    const padded = rounds(2.0).map((x, i) => x + (i % 4 === 0 ? 5 : 0));
    expect(stagedTrustVerdict('c', 0.14, padded, rounds(1.0), 'cpu').kind).toBe('rejected');
  });

  it('trustVerdict: too few samples say nothing; the rejection threshold has an absolute floor', () => {
    expect(
      trustVerdict('c', 1, trustGap({ inside: [1], outside: [2], baselineInside: [1], baselineOutside: [1] })),
    ).toEqual({
      kind: 'clean',
    });
    // 4 us excess on a 10 us kernel is over a quarter but under the 5 us floor: corrected by the medians' difference.
    const v = trustVerdict('c', 0.01, { candidateGapMs: 0.0345, baselineGapMs: 0.03, excessMs: 0.004 });
    expect(v.kind === 'corrected' && v.addMs).toBeCloseTo(0.0045, 6);
    // Within the slack: nothing.
    expect(trustVerdict('c', 0.01, { candidateGapMs: 0.031, baselineGapMs: 0.03, excessMs: 0.0009 }).kind).toBe(
      'clean',
    );
    expect(trustVerdict('c', 0.01, { candidateGapMs: 0.04, baselineGapMs: 0.03, excessMs: 0.006 }).kind).toBe(
      'rejected',
    );
  });
});

describe('cuda: the harness report and the plan', () => {
  it('parses a cuda report with outside series, clock counts and the probe', () => {
    const report = {
      verdict: 'accepted',
      message: '',
      nop_ms: 0.01,
      correctness: [],
      bench: [
        {
          name: 'b',
          sizes: {},
          checked: 1,
          flagged: 0,
          optimized: [0.02],
          baseline: [0.02],
          inside: [0.02],
          ratios: [1],
          outside: [0.05],
          baseline_outside: [0.05],
          low_clock_retaken: 1,
          low_clock_kept: 0,
          idle_samples: 0,
          idle_max_us: 0.5,
        },
      ],
      probe: { candidate: true, baseline: true, busy_us: 200, min_sm_mhz: 1755, max_sm_mhz: 1980, why: '' },
    };
    const parsed = HarnessReportSchema.parse(report);
    expect(parsed.probe?.candidate).toBe(true);
    expect(parsed.bench[0]?.outside).toEqual([0.05]);
  });

  it('cuda plan lines: the busy time and the probe switch', () => {
    expect(cudaLines({})).toEqual([`cuda_busy_us ${CUDA_BUSY_US}`]);
    expect(cudaLines({ KFORGE_CUDA_BUSY_US: '500', KFORGE_CUDA_PROBE: 'off' })).toEqual([
      'cuda_busy_us 500',
      'probe off',
    ]);
    expect(cudaLines({ KFORGE_CUDA_BUSY_US: 'lots' })).toEqual([`cuda_busy_us ${CUDA_BUSY_US}`]);
  });
});

describe('cuda peaks measured on the device (cuda-peaks.ts)', () => {
  const table = { bandwidth_gbps: 3350, fp32_gflops: 67_000, source: 'table' as const };
  it('reads the program line into measured peaks, the table kept in the basis', () => {
    const out = parseCudaPeaks(
      'noise\n{"bandwidth_gbps":3012.5,"fp32_gflops":59800.1,"theoretical_fp32_gflops":66908.2,"sms":132,"l2_bytes":52428800,"clock_mhz":1980,"compute_capability":"9.0","buffer_bytes":1677721600,"runs":10}\n',
    );
    expect(out?.bandwidth_gbps).toBe(3012.5);
    const p = cudaPeaksFrom(out as NonNullable<typeof out>, table, new Date('2026-11-27T00:00:00Z'));
    expect(p.source).toBe('measured');
    expect(p.fp32_gflops).toBeCloseTo(59800.1);
    expect(p.theoretical_fp32_gflops).toBeCloseTo(66908.2);
    expect(p.theoretical_basis).toMatch(/132 SMs.*datasheet 3350 GB\/s/);
    expect(p.measurement?.code_path).toBe('cuda sm_90');
  });

  it('refuses lines without figures', () => {
    expect(parseCudaPeaks('')).toBeNull();
    expect(parseCudaPeaks('{"bandwidth_gbps":0,"fp32_gflops":1}')).toBeNull();
    expect(parseCudaPeaks('{broken')).toBeNull();
  });

  it.skipIf(!hasNvcc || process.env.KFORGE_TEST_GPU)(
    'falls back to the table where the program cannot run (no GPU here)',
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'kf-cupeaks-'));
      const r = measureCudaPeaks('cuda-test', '9.0', table, dir);
      expect(r.peaks).toEqual(table);
      expect(r.error).toBeTruthy();
      rmSync(dir, { recursive: true, force: true });
    },
    240_000,
  );
});

describe.skipIf(!has('cc', ['--version']))('the probe keyed checksum and clock rule (c/kf_probe.h on the host)', () => {
  const src = `#include <stdio.h>
#include <string.h>
#include "kf_probe.h"
int main(void) {
  static uint32_t a[4096];
  for (int i = 0; i < 4096; i++) a[i] = (uint32_t)i * 2654435761u;
  uint64_t k = 0x1234567890abcdefull, whole = kf_probe_sum_host(a, 0, sizeof a, k);
  /* any split into ranges sums to the whole (the device sums in any order) */
  uint64_t parts = kf_probe_sum_host(a, 0, 4000, k) + kf_probe_sum_host(a, 4000, sizeof a - 4000, k);
  int ok = whole == parts;
  /* the key matters */
  ok &= kf_probe_sum_host(a, 0, sizeof a, k + 1) != whole;
  /* one changed word, or two words swapped, change it */
  a[1000] ^= 1; ok &= kf_probe_sum_host(a, 0, sizeof a, k) != whole; a[1000] ^= 1;
  uint32_t t = a[5]; a[5] = a[6]; a[6] = t; ok &= kf_probe_sum_host(a, 0, sizeof a, k) != whole; a[6] = a[5]; a[5] = t;
  ok &= kf_probe_sum_host(a, 0, sizeof a, k) == whole;
  /* the clock rule: under 75% of the top is low; unknown is not */
  ok &= kf_low_clock(1400, 1980) && !kf_low_clock(1500, 1980) && !kf_low_clock(0, 1980) && !kf_low_clock(1000, 0);
  printf("%s %llu\\n", ok ? "ok" : "FAIL", (unsigned long long)whole);
  return ok ? 0 : 1;
}
`;
  it('is order-free, keyed, position-sensitive; the low-clock rule holds', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kf-probe-'));
    writeFileSync(join(dir, 't.c'), src);
    execFileSync('cc', ['-O2', '-I', cSourceDir(), '-o', join(dir, 't'), join(dir, 't.c')]);
    const out = execFileSync(join(dir, 't'), { encoding: 'utf8' });
    expect(out).toMatch(/^ok /);
    if (hasNvcc) {
      // nvcc's host compile of the same header (what probe_cuda.cu's kernel is built from) gives the same bits.
      writeFileSync(join(dir, 'u.cu'), src);
      execFileSync('nvcc', ['-O2', '-I', cSourceDir(), '-o', join(dir, 'u'), join(dir, 'u.cu')], { timeout: 120_000 });
      expect(execFileSync(join(dir, 'u'), { encoding: 'utf8' })).toBe(out);
    }
    rmSync(dir, { recursive: true, force: true });
  }, 180_000);
});

describe.skipIf(!hasNvcc)('cuda sources compile with nvcc (no GPU needed)', () => {
  it('the stub, the probe and the peaks program; each hostile kernel links with the stub', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kf-cuhostile-'));
    const c = cSourceDir();
    const nv = (args: string[]) =>
      execFileSync('nvcc', ['-O3', '-arch=sm_90', '-I', c, ...args], { stdio: 'pipe', timeout: 300_000 });
    nv(['-c', join(c, 'worker_cuda.cu'), '-o', join(dir, 'stub.o')]);
    nv(['-o', join(dir, 'probe'), join(c, 'probe_cuda.cu')]);
    nv(['-o', join(dir, 'peaks'), join(c, 'peaks_cuda.cu')]);
    writeFileSync(
      join(dir, 'glue.c'),
      `#include <stdint.h>
#include "kf_protocol.h"
const int kf_nargs = 3; const int kf_is_ptr[KF_MAX_ARGS] = {1, 1, 0};
void solution(const float *, float *, int64_t);
void kf_call_solution(const kf_arg *a) { solution((const float *)a[0].p, (float *)a[1].p, a[2].i64); }
`,
    );
    execFileSync('cc', ['-c', '-I', c, join(dir, 'glue.c'), '-o', join(dir, 'glue.o')]);
    const cheats = join(__dirname, 'cheats-cuda');
    const hostile = ['rewrite_sync.cu', 'rewrite_events.cu', 'probe_own_arrays.cu', 'after_reply_thread.cu'];
    for (const f of hostile) expect(readdirSync(cheats)).toContain(f);
    for (const f of hostile) {
      const out = join(dir, f.replace('.cu', ''));
      nv(['-o', out, join(cheats, f), join(dir, 'stub.o'), join(dir, 'glue.o')]);
      expect(existsSync(out)).toBe(true);
    }
    rmSync(dir, { recursive: true, force: true });
  }, 600_000);
});
