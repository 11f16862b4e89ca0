// The cpu device: ISA read from cpuinfo for every kind of machine, the theoretical FMA peak, and peaks that are
// ceilings (best of several runs, merged upwards, never called impossible because the machine was busy).
// Every machine here is a fixture: no test reads the model, clock, ISA or core count of the machine it runs on.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { BenchmarkCase, Device } from '@kernelforge/sdk';
import { describe, expect, it } from 'vitest';
import {
  cpuListSize,
  featuresFromFacts,
  isaFromCpuinfo,
  type MachineFacts,
  parseCacheSize,
  readMachineFacts,
  theoreticalFlopsPerCycle,
} from '../src/devices/cpu-features.js';
import {
  cpuDeviceId,
  cpuInfo,
  mergePeaks,
  parsePeaksOutput,
  peaksFromOutput,
  cpuDevice,
  sharedPeaks,
  sharedRemeasurement,
  sharePeaks,
  theoreticalClockGhz,
  withConditions,
} from '../src/devices/cpu.js';
import { BACKENDS, backendFor } from '../src/backends/index.js';
import { discoverDevices } from '../src/devices/discover.js';
import { refreshCpuPeaks } from '../src/devices/remeasure.js';
import { outsideBusyCores } from '../src/devices/quiet-peaks.js';
import { flopsPeak, implausibleReason } from '../src/evaluate/plausibility.js';

const X86 = (vendor: string, family: number, model: number, flags: string, extra = '') =>
  `processor\t: 0\nvendor_id\t: ${vendor}\ncpu family\t: ${family}\nmodel\t\t: ${model}\nmodel name\t: test\n${extra}flags\t\t: fpu sse sse2 ${flags}\n`;

const CACHES = { l1d_bytes: 32768, l2_bytes: 512 * 1024, l3_bytes: 32 * 2 ** 20, llc_shared_by: 2, line_bytes: 64 };

/** A machine described by its facts: 2 cores without SMT, listed at `ghz` (cpufreq). */
const machine = (cpuinfo: string, ghz: number, extra: Partial<MachineFacts> = {}) =>
  featuresFromFacts({
    cpuinfo,
    arch: 'x64',
    logical_cpus: 2,
    smt_threads: 1,
    cpufreq_max_khz: ghz * 1e6,
    caches: CACHES,
    ...extra,
  });

describe('ISA from /proc/cpuinfo', () => {
  it('an AVX2-only AMD EPYC (Zen, family 23 model 1): avx2, 16 registers, 256 bits, a 128-bit FMA datapath', () => {
    const f = isaFromCpuinfo(X86('AuthenticAMD', 23, 1, 'ssse3 fma sse4_1 sse4_2 avx f16c avx2 sha_ni'), 'x64');
    expect(f).toMatchObject({ vector_isa: 'avx2', vector_bits: 256, vector_registers: 16, family_model: '23/1' });
    expect(f.isa).toEqual(['sse4.2', 'avx', 'avx2', 'fma', 'f16c']);
    // Zen splits each 256-bit FMA into two 128-bit halves: 2 pipes x 4 lanes x 2 flops.
    expect(theoreticalFlopsPerCycle(f)).toEqual({ flops: 16, pipes: 2, lanes: 4, fma: true });
  });

  it('an AVX-512 Intel Xeon with AMX: the AVX-512 subsets and AMX are reported, 32 registers of 512 bits', () => {
    const f = isaFromCpuinfo(
      X86(
        'GenuineIntel',
        6,
        143,
        'avx avx2 fma avx512f avx512dq avx512cd avx512bw avx512vl avx512_vnni avx512_bf16 avx512_fp16 amx_tile amx_bf16 amx_int8',
      ),
      'x64',
    );
    expect(f).toMatchObject({ vector_isa: 'avx512', vector_bits: 512, vector_registers: 32 });
    expect(f.isa).toEqual(
      expect.arrayContaining(['avx512f', 'avx512bw', 'avx512vl', 'avx512_vnni', 'avx512_bf16', 'amx_tile', 'amx_int8']),
    );
    expect(theoreticalFlopsPerCycle(f).flops).toBe(64);
  });

  it('AMD Zen 4 runs AVX-512 on 256-bit units: 32 flops per cycle, not 64', () => {
    const f = isaFromCpuinfo(X86('AuthenticAMD', 25, 17, 'avx avx2 fma avx512f avx512bw avx512vl'), 'x64');
    expect(f.vector_isa).toBe('avx512');
    expect(theoreticalFlopsPerCycle(f).flops).toBe(32);
  });

  it('a CPU without AVX (SSE only) and one with AVX but no FMA', () => {
    expect(isaFromCpuinfo(X86('GenuineIntel', 6, 26, 'ssse3 sse4_1 sse4_2'), 'x64')).toMatchObject({
      vector_isa: 'sse',
      vector_bits: 128,
      vector_registers: 16,
    });
    const avx = isaFromCpuinfo(X86('GenuineIntel', 6, 42, 'sse4_2 avx'), 'x64');
    expect(avx.vector_isa).toBe('avx');
    expect(theoreticalFlopsPerCycle(avx)).toMatchObject({ flops: 16, fma: false });
  });

  it('arm64: NEON (and SVE when listed), 32 registers of 128 bits', () => {
    const f = isaFromCpuinfo(
      'processor\t: 0\nFeatures\t: fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp asimddp sve sve2 bf16 i8mm\nCPU implementer\t: 0x41\nCPU part\t: 0xd4f\n',
      'arm64',
    );
    expect(f).toMatchObject({ vector_isa: 'neon', vector_bits: 128, vector_registers: 32, family_model: '0x41/0xd4f' });
    expect(f.isa).toEqual(expect.arrayContaining(['neon', 'neon_dotprod', 'sve', 'sve2', 'bf16', 'i8mm']));
  });

  it('sysfs sizes and cpu lists', () => {
    expect(parseCacheSize('32K')).toBe(32768);
    expect(parseCacheSize('8192K')).toBe(8 * 2 ** 20);
    expect(parseCacheSize('32M')).toBe(32 * 2 ** 20);
    expect(cpuListSize('0-1')).toBe(2);
    expect(cpuListSize('0-3,8,10-11')).toBe(7);
  });

  it('the facts are read from /proc and sysfs: ISA, SMT siblings, clock and caches (a fixture tree, not this machine)', () => {
    const root = mkdtempSync(join(tmpdir(), 'kforge-machine-'));
    const put = (path: string, text: string) => {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    };
    try {
      put('proc/cpuinfo', X86('GenuineIntel', 6, 85, 'avx avx2 fma avx512f avx512bw', 'cpu MHz\t\t: 2000.000\n'));
      const cpu = 'sys/devices/system/cpu/cpu0';
      put(`${cpu}/topology/thread_siblings_list`, '0,2\n');
      put(`${cpu}/cpufreq/cpuinfo_max_freq`, '3100000\n');
      const caches: [number, string, string, string][] = [
        [1, 'Data', '48K', '0,2'],
        [1, 'Instruction', '32K', '0,2'],
        [2, 'Unified', '1024K', '0,2'],
        [3, 'Unified', '36M', '0-3'],
      ];
      caches.forEach(([level, type, size, shared], i) => {
        put(`${cpu}/cache/index${i}/level`, `${level}\n`);
        put(`${cpu}/cache/index${i}/type`, `${type}\n`);
        put(`${cpu}/cache/index${i}/size`, `${size}\n`);
        put(`${cpu}/cache/index${i}/shared_cpu_list`, `${shared}\n`);
        put(`${cpu}/cache/index${i}/coherency_line_size`, '64\n');
      });
      const facts = readMachineFacts(root, 4);
      expect(facts).toMatchObject({ logical_cpus: 4, smt_threads: 2, cpufreq_max_khz: 3_100_000 });
      const f = featuresFromFacts({ ...facts, arch: 'x64' });
      expect(f).toMatchObject({
        arch: 'x86_64',
        vector_isa: 'avx512',
        logical_cpus: 4,
        physical_cores: 2,
        listed_clock_ghz: 3.1,
        caches: { l1d_bytes: 48 * 1024, l2_bytes: 2 ** 20, l3_bytes: 36 * 2 ** 20, llc_shared_by: 4, line_bytes: 64 },
      });
      expect(cpuInfo(f)).toMatchObject({
        vector_isa: 'avx512',
        vector_bits: 512,
        vector_registers: 32,
        physical_cores: 2,
      });
      // Without cpufreq, the clock cpuinfo lists.
      expect(featuresFromFacts({ ...facts, cpufreq_max_khz: 0 }).listed_clock_ghz).toBe(2);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('device ids', () => {
  it('name the architecture, the vector ISA class and the model, so different machines never share a leaderboard', () => {
    const avx512 = { vector_isa: 'avx512', family_model: '6/143' };
    expect(cpuDeviceId('x64', avx512, 'Intel(R) Xeon(R) Platinum 8481C CPU @ 2.70GHz')).toBe(
      'cpu-x86_64-avx512-intel-xeon-platinum-8481c',
    );
    expect(cpuDeviceId('x64', { vector_isa: 'avx2', family_model: '23/49' }, 'AMD EPYC 7B12 64-Core Processor')).toBe(
      'cpu-x86_64-avx2-amd-epyc-7b12',
    );
    // A VM that hides the model number: the CPUID family and model tell the generations apart.
    expect(cpuDeviceId('x64', { vector_isa: 'avx512', family_model: '26/2' }, 'AMD EPYC')).toBe(
      'cpu-x86_64-avx512-amd-epyc-f26m2',
    );
    expect(cpuDeviceId('x64', { vector_isa: 'avx512', family_model: '25/17' }, 'AMD EPYC')).not.toBe(
      cpuDeviceId('x64', { vector_isa: 'avx512', family_model: '26/2' }, 'AMD EPYC'),
    );
    // arm64's cpuinfo has no model name (the model reads as the architecture): implementer and part instead.
    expect(cpuDeviceId('arm64', { vector_isa: 'neon', family_model: '0x41/0xd0c' }, 'arm64')).toBe(
      'cpu-arm64-neon-f0x41m0xd0c',
    );
    // Every id is a generic one extended: `cpu-x86_64` still names the device where it is the only one.
    expect(cpuDeviceId('x64', avx512, 'Intel(R) Xeon(R) Platinum 8481C CPU @ 2.70GHz')).toMatch(/^cpu-x86_64-/);
    expect(cpuDeviceId('x64', avx512, 'Intel(R) Xeon(R) Platinum 8481C CPU @ 2.70GHz')).toMatch(/^[a-z0-9_-]+$/);
  });
});

describe('the start-up peaks shared by the processes of a test run (KFORGE_CPU_PEAKS_SHARE)', () => {
  it("one process's measurement is another's; never without the setting, another machine's, or an unmeasured one", () => {
    const dir = mkdtempSync(join(tmpdir(), 'kf-peaks-share-'));
    const file = join(dir, 'peaks.json');
    const before = process.env.KFORGE_CPU_PEAKS_SHARE;
    try {
      const peaks = { bandwidth_gbps: 12.5, fp32_gflops: 300, source: 'measured' as const };
      delete process.env.KFORGE_CPU_PEAKS_SHARE;
      sharePeaks(peaks);
      expect(sharedPeaks()).toBeUndefined();
      process.env.KFORGE_CPU_PEAKS_SHARE = file;
      expect(sharedPeaks()).toBeUndefined();
      sharePeaks({ bandwidth_gbps: 0, fp32_gflops: 0, source: 'unknown' });
      expect(sharedPeaks()).toBeUndefined();
      sharePeaks(peaks);
      expect(sharedPeaks()).toEqual(peaks);
      // Another machine's or another peaks program's record (its key differs) is not taken.
      writeFileSync(file, JSON.stringify({ key: 'another machine', peaks }));
      expect(sharedPeaks()).toBeUndefined();
    } finally {
      if (before === undefined) delete process.env.KFORGE_CPU_PEAKS_SHARE;
      else process.env.KFORGE_CPU_PEAKS_SHARE = before;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('re-measurements shared by the processes of a test run', () => {
  it("another process's re-measurement within the interval is taken instead of measuring; an older one is not", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kf-peaks-share-'));
    const file = join(dir, 'peaks.json');
    const before = process.env.KFORGE_CPU_PEAKS_SHARE;
    try {
      process.env.KFORGE_CPU_PEAKS_SHARE = file;
      // Figures no real run gives, so a device that ends with them took the shared record and measured nothing.
      const theirs = {
        bandwidth_gbps: 12345,
        fp32_gflops: 99999,
        source: 'measured' as const,
        measurement: {
          measured_at: new Date().toISOString(),
          runs: 1,
          code_path: 'another process',
          bandwidth_method: 'triad',
          flops_method: 'fma',
          quiet: true,
        },
      };
      sharePeaks(theirs);
      expect(sharedRemeasurement()).toBeUndefined(); // a start-up measurement is no re-measurement
      sharePeaks(theirs, Date.now());
      expect(sharedRemeasurement()?.peaks.fp32_gflops).toBe(99999);

      const device = structuredClone(cpuDevice());
      device.peaks = { bandwidth_gbps: 1, fp32_gflops: 1, source: 'measured' };
      expect(await refreshCpuPeaks(device, { minIntervalMs: 60_000, tries: 1, waitMs: 0 })).toBe(true);
      expect(device.peaks.fp32_gflops).toBe(99999);
      expect(device.peaks.bandwidth_gbps).toBe(12345);

      // Made before the interval: this process measures (a real run's figures, not the shared ones).
      sharePeaks(theirs, Date.now() - 120_000);
      const other = structuredClone(cpuDevice());
      other.peaks = { bandwidth_gbps: 1, fp32_gflops: 1, source: 'measured' };
      await refreshCpuPeaks(other, { minIntervalMs: 60_000, tries: 1, waitMs: 0 });
      expect(other.peaks.fp32_gflops).not.toBe(99999);
      // A result above the peak (no interval) always measures.
      sharePeaks(theirs, Date.now());
      const third = structuredClone(cpuDevice());
      third.peaks = { bandwidth_gbps: 1, fp32_gflops: 1, source: 'measured' };
      await refreshCpuPeaks(third, { tries: 1, waitMs: 0 });
      expect(third.peaks.fp32_gflops).not.toBe(99999);
    } finally {
      if (before === undefined) delete process.env.KFORGE_CPU_PEAKS_SHARE;
      else process.env.KFORGE_CPU_PEAKS_SHARE = before;
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('peaks', () => {
  const out = parsePeaksOutput(
    'path=avx2-fma\nlanes=8\nchains=12\nthreads=2\ncores=2\nclock_all_ghz=2.5\nclock_one_ghz=2.5\nfma_runs=9\ngflops_all=70\ngflops_one=39.5\nmem_runs=15\narray_bytes=33554432\ntriad_nt_gbps=30\ntriad_gbps=21\nread_gbps=17\n',
  );

  // The machine the peaks were measured on: an AVX2 Zen (128-bit FMA datapath, 16 flops per cycle), 2 cores, 2.5 GHz.
  const zen = machine(X86('AuthenticAMD', 23, 1, 'avx avx2 fma'), 2.5);

  it('are the larger of all threads and one thread x cores, and of the non-temporal triad and the read; the record says how', () => {
    const p = peaksFromOutput(out, new Date('2026-11-23T12:00:00Z'), 1.5, zen);
    expect(p.bandwidth_gbps).toBe(30);
    expect(p.fp32_gflops).toBeGreaterThanOrEqual(70);
    expect(p.measurement).toMatchObject({
      measured_at: '2026-11-23T12:00:00.000Z',
      runs: 9,
      code_path: 'avx2-fma',
      load_average: 1.5,
      clock_ghz: 2.5,
      triad_gbps: 21,
      triad_nt_gbps: 30,
      read_gbps: 17,
      one_core_gflops: 39.5,
    });
    expect(p.measurement?.flops_method).toMatch(/best of 9: 12 independent avx2-fma FMA chains/);
    expect(p.measurement?.bandwidth_method).toMatch(/best of 15: triad .* non-temporal/);
    expect(p.fp32_gflops).toBe(79);
    expect(p.theoretical_fp32_gflops).toBe(80);
    expect(p.theoretical_basis).toBe('2 cores x 2.50 GHz x 16 flops/cycle (2 FMA pipes x 4 fp32 lanes x 2)');
  });

  it("the theoretical peak uses the faster of the measured and the listed clock, and the machine's own FMA width", () => {
    // A Zen 5 with AVX-512 listed at 2.6 GHz: full 512-bit units, 64 flops per cycle.
    const zen5 = machine(X86('AuthenticAMD', 26, 2, 'avx avx2 fma avx512f avx512bw avx512vl'), 2.6);
    const p = peaksFromOutput(out, new Date(), 0, zen5);
    expect(p.theoretical_basis).toBe('2 cores x 2.60 GHz x 64 flops/cycle (2 FMA pipes x 16 fp32 lanes x 2)');
    expect(p.theoretical_fp32_gflops).toBeCloseTo(2 * 2.6 * 64);
    // One core with two SMT threads counts once.
    const smt = machine(X86('AuthenticAMD', 23, 1, 'avx avx2 fma'), 2, { smt_threads: 2 });
    expect(peaksFromOutput(out, new Date(), 0, smt).theoretical_basis).toMatch(/^1 core x 2\.50 GHz x 16 flops/);
  });

  it('a measured clock that cannot be cycles is not used: the listed one, or no theoretical peak at all', () => {
    // An Intel Xeon (family 6 model 207) listed at 2.1 GHz whose clock test read 11.97 GHz (issue 34: its renamer
    // folded the test's immediate adds).
    const xeon = machine(X86('GenuineIntel', 6, 207, 'avx avx2 fma avx512f avx512bw avx512vl'), 2.1);
    const fast = parsePeaksOutput(
      'path=avx512\nlanes=16\nchains=24\nthreads=2\ncores=2\nclock_all_ghz=11.97\nfma_runs=9\ngflops_all=355\n',
    );
    expect(peaksFromOutput(fast, new Date(), 0, xeon).theoretical_basis).toMatch(/^2 cores x 2\.10 GHz x /);
    // Nothing listed and nothing believable measured: no theoretical peak, rather than a wrong one.
    const unlisted = machine(X86('GenuineIntel', 6, 207, 'avx avx2 fma avx512f avx512bw avx512vl'), 0);
    const p = peaksFromOutput(fast, new Date(), 0, unlisted);
    expect(p.theoretical_basis).toBeUndefined();
    expect(p.theoretical_fp32_gflops).toBeUndefined();
    // A turbo clock above the listed nominal one is believed.
    expect(theoreticalClockGhz(3.1, 2.5)).toBe(3.1);
    expect(theoreticalClockGhz(11.97, 2.5)).toBe(2.5);
    expect(theoreticalClockGhz(11.97, 0)).toBe(0);
  });

  it('merged with a later measurement, every figure only goes up, and the re-measurement is counted', () => {
    const first = peaksFromOutput(out, new Date(), 3, zen);
    const busy = peaksFromOutput(
      { ...out, gflops_all: '20', gflops_one: '10', triad_nt_gbps: '9', read_gbps: '5' },
      new Date(),
      6,
      zen,
    );
    const merged = mergePeaks(first, busy);
    expect(merged.bandwidth_gbps).toBe(first.bandwidth_gbps);
    expect(merged.fp32_gflops).toBe(first.fp32_gflops);
    expect(merged.measurement?.remeasurements).toBe(1);
    expect(mergePeaks(merged, first).measurement?.remeasurements).toBe(2);
  });

  it('a quiet measurement is never lowered, nor made "under load", by a later busy one; a busy one is raised by a quiet one', () => {
    const quietRun = withConditions(peaksFromOutput(out, new Date(), 0.2, zen), { quiet: true, outsideCores: 0.1 }, 1);
    const busyRun = withConditions(
      peaksFromOutput({ ...out, triad_nt_gbps: '19.4', read_gbps: '5' }, new Date(), 2.5, zen),
      { quiet: false, outsideCores: 1.3 },
      2,
    );
    expect(busyRun.measurement).toMatchObject({ quiet: false, outside_busy_cores: 1.3, tries: 2 });
    const kept = mergePeaks(quietRun, busyRun);
    expect(kept.bandwidth_gbps).toBe(30);
    expect(kept.measurement).toMatchObject({ quiet: true, outside_busy_cores: 0.1 });
    const raised = mergePeaks(busyRun, quietRun);
    expect(raised.bandwidth_gbps).toBe(30);
    expect(raised.measurement?.quiet).toBe(true);
    // Two busy runs stay under load, whatever they read.
    expect(mergePeaks(busyRun, busyRun).measurement?.quiet).toBe(false);
  });

  it("the outside load over a run leaves out this process's own time and its reaped children's (the peaks binary)", () => {
    // 2 cores, a 1-second window (200 ticks over both): the machine busy 150 ticks, 120 of them ours.
    const before = { busy: 1000, total: 5000, own: 300 };
    expect(outsideBusyCores(before, { busy: 1150, total: 5200, own: 420 }, 2)).toBeCloseTo(0.3);
    // All of it ours: nothing outside, however busy the machine was.
    expect(outsideBusyCores(before, { busy: 1200, total: 5200, own: 500 }, 2)).toBe(0);
    expect(outsideBusyCores(before, { busy: 1000, total: 5000, own: 300 }, 2)).toBeNaN();
    expect(outsideBusyCores(null, before, 2)).toBeNaN();
  });

  it('a FLOP/s figure measured on a busy machine cannot make an honest kernel implausible: the theoretical peak is the ceiling', () => {
    const device = {
      kind: 'cpu',
      peaks: { bandwidth_gbps: 30, fp32_gflops: 15, source: 'measured', theoretical_fp32_gflops: 80 },
    } as Device;
    expect(flopsPeak(device)).toBe(80);
    const c = { name: 'n1024', gbps: 1, gflops: 70, fraction_of_peak_bandwidth: 0.03, fraction_of_peak_flops: 70 / 80 };
    expect(implausibleReason(c as BenchmarkCase, device)).toBeUndefined();
    expect(implausibleReason({ ...c, gflops: 120, fraction_of_peak_flops: 1.5 } as BenchmarkCase, device)).toMatch(
      /above the device's peak of 80\.0 GFLOP\/s/,
    );
  });
});

describe('device discovery asks every registered backend what it supports (backends/index.ts)', () => {
  it('a device carries the refusal of each backend under its problem kind', () => {
    expect(BACKENDS.map((b) => [b.name, b.kind])).toEqual([
      ['c-abi', 'c'],
      ['torch', 'pytorch'],
    ]);
    expect(backendFor('pytorch')?.name).toBe('torch');
    // An interpreter that is not there: the torch backend refuses every device, the C-ABI backend none.
    const settings = { python: '/nonexistent/kf-python3', jobCgroup: false };
    const workDir = mkdtempSync(join(tmpdir(), 'kf-discover-'));
    try {
      const [cpu] = discoverDevices({ workDir, python: settings.python });
      if (!cpu) throw new Error('no cpu device');
      const asked = BACKENDS.flatMap((b) => {
        const a = b.supports(cpu, settings);
        return a.unavailable !== undefined ? [{ kind: b.kind, reason: a.unavailable }] : [];
      });
      expect(cpu.unavailable).toEqual(asked);
      expect(cpu.unavailable?.map((u) => u.kind)).toEqual(['pytorch']);
      expect(cpu.unavailable?.[0]?.reason).toMatch(/kf-python3 did not run/);
      const gpu: Device = { ...cpu, id: 'cuda-test', kind: 'cuda' };
      expect(backendFor('c')?.supports(gpu, settings)).toEqual({});
      expect(backendFor('pytorch')?.supports(gpu, settings).unavailable).toMatch(/did not run/);
    } finally {
      rmSync(workDir, { recursive: true, force: true });
    }
  }, 120_000);
});
