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
    if (!existsSync(bin)) execFileSync('cc', ['-O3', '-march=native', '-fopenmp', '-o', bin, join(cSourceDir(), 'peaks.c')], { timeout: 60_000 });
    const out = execFileSync(bin, { encoding: 'utf8', timeout: 60_000, env: { ...process.env, OMP_WAIT_POLICY: 'passive' } });
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
