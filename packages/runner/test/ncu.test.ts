// The prepared Nsight Compute run (not yet run on a GPU): ncu's command line, its CSV read back, and its refusals.
// The sample cuda/ncu-details.csv is written from ncu's documented `--csv --page details` layout (one row per launch
// and metric, `==PROF==` lines before), not recorded from a GPU: this machine has none.
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  NCU_METRICS,
  csvFields,
  gpuCounters,
  ncuArgv,
  ncuCounters,
  ncuFailure,
  parseNcuCsv,
  runNcuProfile,
} from '../src/profile/ncu.js';
import { fixture } from './helpers.js';

const SAMPLE = fixture('./cuda/ncu-details.csv');
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('ncu', () => {
  it('the CSV gives each launch its metric set, thousands grouped and n/a handled', () => {
    const kernels = parseNcuCsv(SAMPLE);
    expect(kernels).toEqual([
      {
        id: 0,
        name: 'relu(const float *, float *, long)',
        block_size: '(256, 1, 1)',
        grid_size: '(16384, 1, 1)',
        metrics: {
          dram_throughput_pct: 91.27,
          duration_ns: 6144,
          l2_hit_rate_pct: 0.04,
          sm_throughput_pct: 18.52,
          achieved_occupancy_pct: 87.61,
        },
      },
      {
        id: 1,
        name: 'kf_tiled_gemm(const float *, const float *, float *, long, long, long)',
        block_size: '(16, 16, 1)',
        grid_size: '(64, 64, 1)',
        metrics: {
          dram_throughput_pct: 3.1,
          duration_ns: 1_203_584,
          sm_throughput_pct: 78.9,
          achieved_occupancy_pct: 95.02,
        },
      },
    ]);
    // The counters carried are the longest launch's.
    const c = ncuCounters(kernels);
    expect(c.available).toBe(true);
    expect(c.values).toMatchObject({ sm_throughput_pct: 78.9, duration_ns: 1_203_584 });
    expect(c.reason).toMatch(/2 launches profiled; the longest: kf_tiled_gemm/);
  });

  it('columns are found by name (an older ncu without Block/Grid Size), quotes inside fields kept', () => {
    const old = [
      '"ID","Process ID","Process Name","Host Name","Kernel Name","Kernel Time","Context","Stream","Section Name","Metric Name","Metric Unit","Metric Value"',
      '"3","1","w","h","k<""a,b"">(int)","2024-Jan-01 00:00:00","1","7","Command line profiler metrics","gpu__time_duration.sum","usecond","12.5"',
    ].join('\n');
    expect(csvFields('"a","b ""c"", d",""')).toEqual(['a', 'b "c", d', '']);
    expect(parseNcuCsv(old)).toEqual([
      { id: 3, name: 'k<"a,b">(int)', block_size: null, grid_size: null, metrics: { duration_ns: 12_500 } },
    ]);
    expect(parseNcuCsv('==PROF== Connected\n==WARNING== No kernels were profiled.\n')).toEqual([]);
  });

  it("the command line: CSV, base units, the candidate's kernels only, bounded launches, the fixed metric set", () => {
    const argv = ncuArgv('/usr/local/cuda/bin/ncu', ['relu', 'kf_tiled_gemm'], ['./harness', 'plan.txt']);
    expect(argv.slice(0, 1)).toEqual(['/usr/local/cuda/bin/ncu']);
    expect(argv.slice(-2)).toEqual(['./harness', 'plan.txt']);
    const opt = (name: string) => argv[argv.indexOf(name) + 1];
    expect(opt('--page')).toBe('details');
    expect(opt('--print-units')).toBe('base');
    expect(opt('--kernel-name')).toBe('regex:^(relu|kf_tiled_gemm)$');
    expect(Number(opt('--launch-count'))).toBeGreaterThan(0);
    expect(opt('--metrics')?.split(',').sort()).toEqual(Object.values(NCU_METRICS).sort());
    expect(argv).toContain('--csv');
  });

  it('refusals read as reasons: no ncu, counters restricted, nothing profiled', async () => {
    expect(gpuCounters(null)).toEqual({
      available: false,
      reason: 'not available here, because Nsight Compute (ncu) is not on this runner',
    });
    expect(gpuCounters('/usr/local/cuda/bin/ncu').reason).toMatch(/runs once, untimed, for an accepted attempt only/);
    expect(
      ncuFailure(
        '==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA GPU Performance Counters',
      ),
    ).toMatch(/restricts GPU performance counters to administrators/);
    expect(ncuFailure('==WARNING== No kernels were profiled.')).toMatch(/profiled no kernel/);
    expect((await runNcuProfile({ command: ['true'], kernels: [], cwd: tmpdir(), ncu: null })).counters.reason).toMatch(
      /ncu\) is not on this runner/,
    );
  });

  it('the run end to end with a stand-in ncu (a script printing the sample): argv passed, CSV read, time bounded', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kforge-ncu-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'sample.csv'), SAMPLE);
    const fake = join(dir, 'ncu');
    writeFileSync(fake, `#!/bin/sh\nprintf '%s\\n' "$@" > "${dir}/argv"\ncat "${dir}/sample.csv"\n`);
    chmodSync(fake, 0o755);
    const r = await runNcuProfile({ command: ['./worker', '--once'], kernels: ['relu'], cwd: dir, ncu: fake });
    expect(r.kernels).toHaveLength(2);
    expect(r.counters.available).toBe(true);
    expect(readFileSync(join(dir, 'argv'), 'utf8').trim().split('\n').slice(-2)).toEqual(['./worker', '--once']);
    const slow = join(dir, 'slow-ncu');
    writeFileSync(slow, '#!/bin/sh\nsleep 30\n');
    chmodSync(slow, 0o755);
    const t = await runNcuProfile({ command: ['x'], kernels: [], cwd: dir, ncu: slow, timeoutMs: 500 });
    expect(t.counters).toEqual({ available: false, reason: 'not available: ncu ran past 0.5 s' });
    const denied = join(dir, 'denied-ncu');
    writeFileSync(
      denied,
      "#!/bin/sh\necho '==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA GPU Performance Counters on the target device 0.'\nexit 1\n",
    );
    chmodSync(denied, 0o755);
    const d = await runNcuProfile({ command: ['x'], kernels: [], cwd: dir, ncu: denied });
    expect(d.counters.available).toBe(false);
    expect(d.counters.reason).toMatch(/ERR_NVGPUCTRPERM/);
  }, 30_000);
});
