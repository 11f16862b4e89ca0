// The cpu device: model and cores from /proc/cpuinfo, peaks measured once per process (DESIGN 6.6).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { arch, availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Device, DevicePeaks } from '@kernelforge/sdk';
import { contentHash } from '../internal/hash.js';
import { cSourceDir } from '../internal/paths.js';

let measured: DevicePeaks | undefined;

function cpuModel(): string {
  try {
    const info = readFileSync('/proc/cpuinfo', 'utf8');
    return /^model name\s*:\s*(.+)$/m.exec(info)?.[1]?.trim() ?? arch();
  } catch {
    return arch();
  }
}

/** STREAM-like bandwidth and an FMA throughput test, a few hundred ms; cached for the life of the process. */
export function measureCpuPeaks(workDir = join(tmpdir(), 'kforge-runner'), fresh = false): DevicePeaks {
  if (measured && !fresh) return measured;
  try {
    mkdirSync(workDir, { recursive: true });
    const bin = join(workDir, `peaks-${contentHash(readFileSync(join(cSourceDir(), 'peaks.c'), 'utf8'))}`);
    if (!existsSync(bin))
      execFileSync('cc', ['-O3', '-march=native', '-fopenmp', '-o', bin, join(cSourceDir(), 'peaks.c')], {
        timeout: 60_000,
      });
    const out = execFileSync(bin, {
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, OMP_WAIT_POLICY: 'passive' },
    });
    const [bw, fl] = out.trim().split(/\s+/).map(Number);
    measured = {
      bandwidth_gbps: Math.max(bw ?? 0, measured?.bandwidth_gbps ?? 0),
      fp32_gflops: Math.max(fl ?? 0, measured?.fp32_gflops ?? 0),
      source: 'measured',
    };
  } catch {
    measured ??= { bandwidth_gbps: 0, fp32_gflops: 0, source: 'unknown' };
  }
  return measured;
}

let llc: number | undefined;

/** The last-level cache one core sees (bytes), from sysfs: the highest cache level listed for cpu0. Not
    glibc's sysconf, which on AMD EPYC virtual machines reports the whole package's L3 (384 MiB on a VM whose
    two cores share one 32 MiB L3). 0 when unknown (the harness then asks sysconf). */
export function llcBytes(): number {
  if (llc !== undefined) return llc;
  let best = 0;
  let bestLevel = 0;
  for (let i = 0; i < 8; i++) {
    const dir = `/sys/devices/system/cpu/cpu0/cache/index${i}`;
    try {
      const level = Number(readFileSync(join(dir, 'level'), 'utf8'));
      const size = readFileSync(join(dir, 'size'), 'utf8').trim();
      const bytes = Number.parseInt(size, 10) * (size.endsWith('M') ? 2 ** 20 : size.endsWith('K') ? 1024 : 1);
      if (level >= bestLevel && bytes > 0) {
        bestLevel = level;
        best = bytes;
      }
    } catch {
      break;
    }
  }
  llc = best;
  return best;
}

export function cpuDevice(workDir?: string): Device {
  return {
    id: `cpu-${arch() === 'x64' ? 'x86_64' : arch()}`,
    kind: 'cpu',
    name: cpuModel(),
    cores: availableParallelism(),
    peaks: { ...measureCpuPeaks(workDir) },
    available: true,
    runners: 1,
    languages: ['c', 'cpp'],
  };
}
