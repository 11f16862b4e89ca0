// The cuda backend on a machine without a GPU: sources must compile with nvcc; errors come back with their log.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Device } from '@kernelforge/sdk';
import { describe, expect, it } from 'vitest';
import { evaluate } from '../src/index.js';
import { parseNvidiaSmi } from '../src/devices/cuda.js';
import { catalogue, fixture, payload, workDir } from './helpers.js';

const hasNvcc = (() => {
  try {
    execFileSync('nvcc', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

const h100: Device = {
  id: 'cuda-H100',
  kind: 'cuda',
  name: 'NVIDIA H100 80GB HBM3',
  peaks: { bandwidth_gbps: 3350, fp32_gflops: 67_000, source: 'table' },
  available: true,
  runners: 1,
  languages: ['cuda'],
};

describe.skipIf(!hasNvcc)('cuda backend (compile only here)', () => {
  it('a good cuda ReLU compiles with nvcc for the device architecture', async () => {
    const state = await evaluate(
      payload('19_ReLU', fixture('./candidates/relu_good.cu'), { language: 'cuda', device: 'cuda-H100' }),
      {
        problems: catalogue,
        device: h100,
        workDir,
        timing: 'quick',
        computeCapability: '9.0',
      },
    );
    expect(state.compile?.ok, state.compile?.log).toBe(true);
    expect(state.compile?.compiler).toMatch(/^nvcc/);
    expect(state.compile?.flags).toContain('-arch=sm_90');
    // No GPU on this machine: the compiled worker cannot start, and says so.
    if (!process.env.KFORGE_TEST_GPU) expect(state.verdict).toBe('runtime_error');
    else expect(state.verdict, state.message).toBe('accepted');
  }, 180_000);

  it("a broken cuda source is a compile_error with nvcc's log", async () => {
    const state = await evaluate(
      payload('19_ReLU', fixture('./candidates/relu_broken.cu'), { language: 'cuda', device: 'cuda-H100' }),
      {
        problems: catalogue,
        device: h100,
        workDir,
        timing: 'quick',
      },
    );
    expect(state.verdict).toBe('compile_error');
    expect(state.compile?.log).toContain('undefined_symbol');
  }, 180_000);

  it('every reference.cu compiles with nvcc', () => {
    // One nvcc call for all of them: building each problem's whole cuda harness would take minutes here.
    const dir = mkdtempSync(join(tmpdir(), 'kf-cu-'));
    const files = [...catalogue.values()].map((p) => {
      const f = join(dir, `${p.name}.cu`);
      writeFileSync(f, p.reference_cu ?? '');
      return f;
    });
    execFileSync('nvcc', ['-O3', '-arch=sm_90', '-c', ...files, '-odir', dir], { stdio: 'pipe', timeout: 300_000 });
    for (const p of catalogue.values()) expect(existsSync(join(dir, `${p.name}.o`))).toBe(true);
    rmSync(dir, { recursive: true, force: true });
  }, 300_000);

  it('cuda sources on a cpu device are refused as compile_error', async () => {
    const { cpuDevice } = await import('./helpers.js');
    const state = await evaluate(payload('19_ReLU', fixture('./candidates/relu_good.cu'), { language: 'cuda' }), {
      problems: catalogue,
      device: cpuDevice(),
      workDir,
    });
    expect(state.verdict).toBe('compile_error');
  });
});

describe('gpu discovery', () => {
  it('reads nvidia-smi lines into devices with table peaks', () => {
    const devs = parseNvidiaSmi(
      'NVIDIA H100 80GB HBM3, 81559, 1980\nNVIDIA H100 80GB HBM3, 81559, 1980\nNVIDIA L4, 23034, 2040\n',
    );
    expect(devs.map((d) => d.id)).toEqual(['cuda-H100', 'cuda-L4']);
    expect(devs[0]!.peaks.source).toBe('table');
    expect(devs[0]!.memory_mb).toBe(81559);
  });
});
