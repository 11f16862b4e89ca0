// `--build-facts` for a cuda evaluation (issue 37): each kernel's registers, spills, stack, shared memory and
// occupancy with the basis of its block size, the PTX with its hot loop marked, the reason there is no SASS.
import type { EvaluationState } from '@kernelforge/sdk';
import { expect, test } from 'vitest';
import { printBuildFacts } from '../src/output/build-facts.js';
import { Output } from '../src/output/output.js';

const occ = (block_size: number, occupancy: number, limiter: string, basis: string) => ({
  block_size,
  basis,
  blocks_per_sm: (occupancy * 64 * 32) / block_size,
  warps_per_sm: occupancy * 64,
  max_warps_per_sm: 64,
  occupancy,
  limiter,
});

const state: EvaluationState = {
  verdict: 'accepted',
  mode: 'benchmark',
  message: 'accepted',
  compile: {
    ok: true,
    compiler: 'nvcc (Cuda compilation tools, release 13.0, V13.0.88)',
    flags: ['-O3', '-arch=sm_90'],
    log: '',
    duration_ms: 3000,
    facts: {
      symbols: ['_Z4reluPKfPfl'],
      assembly: '.visible .entry _Z4reluPKfPfl(\n$L__BB0_1:\n\tmax.f32 %f2, %f1, 0f00000000;\n\t@%p1 bra $L__BB0_1;\n}',
      assembly_truncated: false,
      hot_loop: { start_line: 2, end_line: 4, function: '_Z4reluPKfPfl', vector_bits: null },
      vectorization: null,
      counters: { available: false, reason: 'not available here, because Nsight Compute (ncu) is not on this runner' },
      notes: ['SASS needs cuobjdump, not on this runner: the assembly is the PTX that ptxas compiled'],
      cuda: {
        arch: 'sm_90',
        user_constant_bytes: null,
        assembly_kind: 'ptx',
        limits_source: 'per-arch limits from cuda_occupancy.h',
        kernels: [
          {
            name: 'relu(float const*, float*, long)',
            mangled: '_Z4reluPKfPfl',
            registers: 10,
            stack_bytes: 0,
            spill_store_bytes: 0,
            spill_load_bytes: 0,
            shared_bytes: 0,
            constant_bytes: null,
            barriers: 0,
            max_threads: null,
            occupancy: [occ(256, 1, 'warps', 'launched with 256 threads per block in the source')],
          },
          {
            name: 'big(float*)',
            mangled: '_Z3bigPf',
            registers: 64,
            stack_bytes: 632,
            spill_store_bytes: 1720,
            spill_load_bytes: 1908,
            shared_bytes: 1024,
            constant_bytes: null,
            barriers: 1,
            max_threads: 1024,
            occupancy: [occ(1024, 0.5, 'registers', '__launch_bounds__ maximum of 1024 threads')],
          },
        ],
      },
    },
  },
  correctness: null,
  runner_seconds: 4,
  evaluated_at: '2026-11-27T00:00:00Z',
};

test('a cuda evaluation prints its kernels, occupancy bases, PTX with the hot loop marked, and why no SASS', () => {
  let out = '';
  let err = '';
  const output = new Output('plain', { write: (s: string) => (out += s) }, { write: (s: string) => (err += s) }, {});
  printBuildFacts(output, 'Attempt #1', state);
  expect(err).toBe('');
  const lines = out.split('\n');
  expect(out).toMatch(/Hot loop:\s+PTX lines 2-4, in _Z4reluPKfPfl/);
  expect(lines.find((l) => l.includes('relu(float const*'))).toMatch(/10\s+none\s+0 B\s+0 B\s+100%@256 \(warps\)/);
  expect(lines.find((l) => l.includes('big(float*)'))).toMatch(
    /64\s+1720\/1908 B\s+632 B\s+1024 B\s+50%@1024 \(registers\)/,
  );
  expect(out).toContain('Block size: launched with 256 threads per block in the source');
  expect(out).toContain('Block size: __launch_bounds__ maximum of 1024 threads');
  expect(out).toContain('Note:');
  expect(out).toContain('SASS needs cuobjdump, not on this runner');
  expect(out).toContain('PTX of _Z4reluPKfPfl');
  expect(lines.filter((l) => l.startsWith('> '))).toEqual([
    '> $L__BB0_1:',
    '> \tmax.f32 %f2, %f1, 0f00000000;',
    '> \t@%p1 bra $L__BB0_1;',
  ]);
  expect(out).not.toContain('vectorization');
  expect(out).toMatch(/Counters:\s+not available here, because Nsight Compute \(ncu\) is not on this runner/);
});
