// `--build-facts` for a PyTorch evaluation (issue 37): the operators or kernels one ModelNew call ran (torch.profiler)
// and its Triton kernels' compiled metadata, or why there are none.
import type { EvaluationState } from '@kernelforge/sdk';
import { expect, test } from 'vitest';
import { buildFactsJson, printBuildFacts } from '../src/output/build-facts.js';
import { Output } from '../src/output/output.js';

const state = (torch: NonNullable<NonNullable<EvaluationState['compile']>['facts']>['torch']): EvaluationState => ({
  verdict: 'accepted',
  mode: 'benchmark',
  message: 'accepted',
  compile: {
    ok: true,
    compiler: 'none (nothing to compile)',
    flags: [],
    log: '',
    duration_ms: 0,
    facts: {
      symbols: [],
      assembly: '',
      assembly_truncated: false,
      hot_loop: null,
      vectorization: null,
      counters: { available: false, reason: 'not available for PyTorch candidates' },
      ...(torch ? { torch } : {}),
    },
  },
  correctness: null,
  runner_seconds: 4,
  evaluated_at: '2026-11-27T00:00:00Z',
});

const print = (s: EvaluationState) => {
  let out = '';
  let err = '';
  const output = new Output('plain', { write: (x: string) => (out += x) }, { write: (x: string) => (err += x) }, {});
  printBuildFacts(output, 'Attempt #1', s);
  return { out, err };
};

test('a cpu PyTorch evaluation prints the operators of one call and why no Triton kernel', () => {
  const s = state({
    device: 'cpu',
    torch_version: '1.13.0',
    kind: 'cpu_ops',
    call_ms: 1.5,
    ops: [
      { name: 'aten::hardsigmoid', calls: 1, self_ms: 1.2, total_ms: 1.2 },
      { name: 'aten::empty_like', calls: 1, self_ms: 0.01, total_ms: 0.02 },
    ],
    ops_total: 2,
    triton: [],
    triton_reason: 'Triton is not installed here (ModuleNotFoundError)',
  });
  const { out, err } = print(s);
  expect(err).toBe('');
  expect(out).toMatch(/Profiled:\s+one ModelNew call under torch.profiler \(torch 1.13.0, cpu\): 1.500 ms/);
  expect(out).toMatch(/Triton:\s+Triton is not installed here/);
  expect(out).toContain('Operators of one call (2 of 2)');
  expect(out).toMatch(/aten::hardsigmoid\s+1\s+1.200\s+1.200/);
  expect(out).not.toContain('Assembly of');
  expect(buildFactsJson(s).facts?.torch?.ops[0]?.name).toBe('aten::hardsigmoid');
});

test('a cuda PyTorch evaluation prints its kernels and each Triton kernel’s warps, stages, shared memory, registers', () => {
  const { out } = print(
    state({
      device: 'cuda',
      torch_version: '2.11.0',
      kind: 'cuda_kernels',
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
          best_config: null,
        },
      ],
    }),
  );
  expect(out).toContain('CUDA kernels of one call (1 of 1)');
  expect(out).toMatch(/DEVICE MS/);
  expect(out).toMatch(/relu_kernel\s+4\s+3\s+0 B\s+16\s+0\s+-/);
});
