// The compilers and the fixed flags of each language (DESIGN 6.2), with their versions for the report.
import { execFileSync } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import type { Language } from '@kernelforge/sdk';

export interface Toolchain {
  /** What the report names, e.g. `cc (gcc 12.2.0)`. */
  compiler: string;
  /** Resolved binary, so the sandbox need not follow /etc/alternatives. */
  binary: string;
  version: string;
  flags: string[];
  linkFlags: string[];
}

const cache = new Map<string, Toolchain>();

function which(name: string): string | undefined {
  for (const dir of ['/usr/local/bin', '/usr/bin', '/bin', '/usr/local/cuda/bin']) {
    const p = `${dir}/${name}`;
    if (existsSync(p)) return realpathSync(p);
  }
  return undefined;
}

function versionOf(binary: string): string {
  try {
    const out = execFileSync(binary, ['--version'], { encoding: 'utf8', timeout: 10_000 });
    const lines = out.trim().split('\n');
    return (binary.includes('nvcc') ? lines.find((l) => l.includes('release')) : lines[0])?.trim() ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** Where the cuda toolkit's cuBLAS header is when the runner has cuBLAS (candidates and baselines link it then). */
export const CUBLAS_HEADER = '/usr/local/cuda/include/cublas_v2.h';

/** The cuda architecture flag for a compute capability such as "9.0"; sm_90 when unknown (H100/H200). */
export function cudaArchFlag(computeCapability?: string): string {
  const cc = (computeCapability ?? '9.0').replace('.', '');
  return `-arch=sm_${cc}`;
}

export function toolchainFor(language: Language, computeCapability?: string): Toolchain {
  const key = `${language}:${computeCapability ?? ''}`;
  const hit = cache.get(key);
  if (hit) return hit;
  let tc: Toolchain;
  if (language === 'cuda') {
    const binary = which('nvcc');
    if (!binary) throw new Error('nvcc is not installed on this runner');
    tc = {
      compiler: 'nvcc',
      binary,
      version: versionOf(binary),
      flags: ['-O3', cudaArchFlag(computeCapability)],
      // A candidate may call cuBLAS, as the references do where the runner has it (the baseline is linked the same
      // way, harness/build.ts); --as-needed keeps it out of workers that do not use it.
      linkFlags: existsSync(CUBLAS_HEADER) ? ['-Xlinker', '--as-needed', '-lcublas'] : [],
    };
  } else {
    const name = language === 'cpp' ? 'c++' : 'cc';
    const binary = which(name);
    if (!binary) throw new Error(`${name} is not installed on this runner`);
    tc = {
      compiler: name,
      binary,
      version: versionOf(binary),
      flags: ['-O3', '-march=native', '-fopenmp'],
      linkFlags: ['-lm'],
    };
  }
  cache.set(key, tc);
  return tc;
}
