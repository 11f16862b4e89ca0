// @vitest-environment happy-dom
// The Profile card (issue 37): gcc's vectorization report as a table, the counters or why there are none, the hot
// loop named; another user's result says its build facts are the author's; a result without facts keeps the roofline.
import type { EvaluationState } from '@kernelforge/sdk';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EvaluationReport } from '../src/components/EvaluationReport';
import { fakeApi } from './helpers';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const base: EvaluationState = {
  verdict: 'accepted',
  mode: 'benchmark',
  message: 'accepted',
  compile: { ok: true, compiler: 'cc (gcc 12)', flags: ['-O3'], log: '', duration_ms: 40 },
  correctness: null,
  runner_seconds: 1,
  evaluated_at: '2026-11-27T00:00:00Z',
};

const facts = {
  symbols: ['solution', 'solution._omp_fn.0'],
  assembly: '0000000000001170 <solution._omp_fn.0>:\n    1178:\tvmaxps %ymm1,%ymm0,%ymm0\n    118d:\tjne    1178 <x>',
  assembly_truncated: false,
  hot_loop: { start_line: 2, end_line: 3, function: 'solution._omp_fn.0', vector_bits: 256 },
  vectorization: [
    { line: 5, column: 43, vectorized: true, widths: [32, 16], reasons: [] },
    { line: 9, column: 3, vectorized: false, widths: [], reasons: ['control flow in loop.'] },
  ],
  counters: { available: false, reason: 'not available here, because this machine exposes no hardware PMU' },
};

describe('the Profile card', () => {
  it('shows the vectorization table, the hot loop and the counters reason, with the assembly', () => {
    fakeApi({ 'GET /api/v1/devices': { body: { data: [], count: 0 } } });
    render(
      <EvaluationReport
        state={{ ...base, compile: { ...(base.compile as NonNullable<EvaluationState['compile']>), facts } }}
      />,
    );
    expect(screen.getByRole('heading', { name: 'Profile' })).toBeTruthy();
    const rows = screen.getByTestId('vectorization').querySelectorAll('tbody tr');
    expect([...rows].map((r) => r.textContent)).toEqual(['5yes256-bit, 128-bit—', '9no—control flow in loop.']);
    expect(screen.getByTestId('hot-loop').textContent).toBe(
      'Hot loop: assembly lines 2–3, in solution._omp_fn.0 (256-bit vectors)',
    );
    expect(screen.getByTestId('counters').textContent).toContain('no hardware PMU');
    expect(screen.getByText(/Assembly of solution, solution\._omp_fn\.0/)).toBeTruthy();
  });

  it('a cuda result shows each kernel: registers, spills, shared memory, occupancy with its basis, and its PTX', () => {
    fakeApi({ 'GET /api/v1/devices': { body: { data: [], count: 0 } } });
    const occ = (block_size: number, occupancy: number, limiter: string, basis: string) => ({
      block_size,
      basis,
      blocks_per_sm: (occupancy * 64 * 32) / block_size,
      warps_per_sm: occupancy * 64,
      max_warps_per_sm: 64,
      occupancy,
      limiter,
    });
    const kernel = {
      stack_bytes: 0,
      spill_store_bytes: 0,
      spill_load_bytes: 0,
      shared_bytes: 0,
      constant_bytes: null,
      barriers: 0,
      max_threads: null,
    };
    const cudaFacts = {
      symbols: ['_Z4reluPKfPfl', '_Z7bigregsPKfPfi'],
      assembly: '.visible .entry _Z4reluPKfPfl(\n$L__BB0_1:\n\tld.global.f32 %f1, [%rd1];\n\t@%p1 bra $L__BB0_1;\n}',
      assembly_truncated: false,
      hot_loop: { start_line: 2, end_line: 4, function: '_Z4reluPKfPfl', vector_bits: null },
      vectorization: null,
      counters: { available: false, reason: 'not available here, because Nsight Compute (ncu) is not on this runner' },
      notes: ['SASS needs cuobjdump, not on this runner: the assembly is the PTX that ptxas compiled'],
      cuda: {
        arch: 'sm_90',
        user_constant_bytes: null,
        assembly_kind: 'ptx' as const,
        limits_source: 'cuda_occupancy.h',
        kernels: [
          {
            ...kernel,
            name: 'relu(float const*, float*, long)',
            mangled: '_Z4reluPKfPfl',
            registers: 10,
            occupancy: [occ(256, 1, 'warps', 'launched with 256 threads per block in the source')],
          },
          {
            ...kernel,
            name: 'bigregs(float const*, float*, int)',
            mangled: '_Z7bigregsPKfPfi',
            registers: 64,
            stack_bytes: 632,
            spill_store_bytes: 1720,
            spill_load_bytes: 1908,
            shared_bytes: 2048,
            occupancy: [
              occ(
                128,
                0.5,
                'registers',
                "assumed 128 threads: the launch's block size is not a constant of the source",
              ),
              occ(
                256,
                0.5,
                'registers',
                "assumed 256 threads: the launch's block size is not a constant of the source",
              ),
            ],
          },
        ],
      },
    };
    render(
      <EvaluationReport
        state={{
          ...base,
          compile: { ...(base.compile as NonNullable<EvaluationState['compile']>), compiler: 'nvcc', facts: cudaFacts },
        }}
      />,
    );
    const rows = [...screen.getByTestId('cuda-kernels').querySelectorAll('tbody tr')].map((r) => r.textContent);
    expect(rows[0]).toBe(
      'relu(float const*, float*, long)10none0 B0 B100% at 256 threads (8 blocks/SM, warps)launched with 256 threads per block in the source',
    );
    expect(rows[1]).toContain('1720 B / 1908 B');
    expect(rows[1]).toContain('2 KiB');
    expect(rows[1]).toContain('50% at 128 threads (8 blocks/SM, registers)50% at 256 threads (4 blocks/SM, registers)');
    expect(rows[1]).toContain("assumed sizes: the launch's block size is not a constant of the source");
    expect(screen.queryByTestId('vectorization')).toBeNull();
    expect(screen.getByTestId('hot-loop').textContent).toBe('Hot loop: PTX lines 2–4, in _Z4reluPKfPfl');
    expect(screen.getByTestId('counters').textContent).toContain('Nsight Compute (ncu) is not on this runner');
    expect(screen.getByText(/SASS needs cuobjdump, not on this runner/)).toBeTruthy();
    expect(screen.getByText(/^PTX of _Z4reluPKfPfl, _Z7bigregsPKfPfi/)).toBeTruthy();
  });

  it('a PyTorch result shows the kernels of one call and each Triton kernel’s metadata, no assembly', () => {
    fakeApi({ 'GET /api/v1/devices': { body: { data: [], count: 0 } } });
    const torchFacts = {
      symbols: [],
      assembly: '',
      assembly_truncated: false,
      hot_loop: null,
      vectorization: null,
      counters: { available: false, reason: 'not available for PyTorch candidates' },
      torch: {
        device: 'cuda' as const,
        torch_version: '2.11.0',
        kind: 'cuda_kernels' as const,
        call_ms: 0.2,
        ops: [{ name: 'relu_kernel', calls: 1, self_ms: 0.05, total_ms: 0.05 }],
        ops_total: 1,
        triton: [
          {
            name: 'relu_kernel',
            compiled: true,
            num_warps: 4,
            num_stages: 3,
            shared_bytes: 0,
            registers: 16,
            spills: 0,
          },
        ],
      },
    };
    render(
      <EvaluationReport
        state={{
          ...base,
          sizes_used: { n: 1 },
          compile: {
            ok: true,
            compiler: 'none (nothing to compile)',
            flags: [],
            log: '',
            duration_ms: 0,
            facts: torchFacts,
          },
        }}
      />,
    );
    const ops = screen.getByTestId('torch-ops');
    expect(ops.textContent).toContain('One ModelNew call under torch.profiler (torch 2.11.0, cuda)');
    expect([...ops.querySelectorAll('tbody tr')].map((r) => r.textContent)).toEqual(['relu_kernel10.0500.050']);
    expect([...screen.getByTestId('triton-kernels').querySelectorAll('tbody tr')].map((r) => r.textContent)).toEqual([
      'relu_kernel430 B160',
    ]);
    expect(screen.queryByText(/Assembly of/)).toBeNull();
    expect(screen.queryByLabelText('Compile log')).toBeNull();
    expect(screen.getByTestId('counters').textContent).toContain('not available for PyTorch candidates');
  });

  it("another user's compiled result says the build facts are the author's", () => {
    fakeApi({ 'GET /api/v1/devices': { body: { data: [], count: 0 } } });
    render(<EvaluationReport state={{ ...base, redacted: true }} />);
    expect(screen.getByTestId('profile').textContent).toContain('visible to the author only');
    expect(screen.queryByTestId('vectorization')).toBeNull();
  });

  it('a result without build facts (cuda, pytorch, before issue 37) has no Profile card', () => {
    fakeApi({ 'GET /api/v1/devices': { body: { data: [], count: 0 } } });
    render(<EvaluationReport state={base} />);
    expect(screen.queryByTestId('profile')).toBeNull();
  });
});
