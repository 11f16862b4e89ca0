// The LLM agents on a pytorch problem: KernelBench's prompt shape (the reference architecture in, a ModelNew file out),
// against a local server speaking each provider's protocol.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EvaluationState, Problem } from '@kernelforge/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { type AgentAttemptView, type AgentsConfig, createAgent } from '../../src/agents/index.js';
import { FakeLlm } from './helpers/fake-llm.js';
import { PROBLEMS_DIR, problem } from './helpers/problems.js';
import { context } from './helpers/session.js';

const llm = new FakeLlm();
beforeAll(() => llm.start());
afterAll(() => llm.stop());
beforeEach(() => llm.reset());

const SOURCE = readFileSync(join(PROBLEMS_DIR, 'pytorch', 'level2', '201_Gemm_GELU_Scale.py'), 'utf8');
const GEMM: Problem = problem('201_Gemm_GELU_Scale', {
  kind: 'pytorch',
  level: 2,
  languages: ['pytorch'],
  signature: [],
  reference_source: SOURCE,
  torch: {
    constants: { batch_size: 512, in_features: 2048, out_features: 2048 },
    scalable_constants: ['batch_size', 'in_features', 'out_features'],
    scalable: true,
    scaling_note: 'halved',
    sizes: {
      cpu: {
        budget_bytes: 256 << 20,
        constants: { batch_size: 512, in_features: 1024, out_features: 1024 },
        test: [],
        benchmark: [
          {
            name: 'benchmark',
            constants: { batch_size: 512, in_features: 1024, out_features: 1024 },
            inputs: [{ type: 'tensor', shape: [512, 1024], dtype: 'float32' }],
            init_inputs: [],
            outputs: [],
            bytes: 1,
          },
        ],
        fits: true,
      },
    },
    origin: 'builtin',
    sha256: 'x',
  },
});

const MODEL_NEW = `import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features, scale):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.scale = scale

    def forward(self, x):
        return torch.nn.functional.gelu(self.linear(x), approximate="tanh") * self.scale`;

const incorrect: EvaluationState = {
  verdict: 'incorrect',
  mode: 'benchmark',
  message: 'incorrect: output 0 differs at [3, 7]',
  compile: { ok: true, compiler: 'load_inline (g++)', flags: ['-O3'], log: '', duration_ms: 10 },
  correctness: {
    passed: false,
    cases: [
      {
        name: 'test-0',
        sizes: { batch_size: 17, in_features: 64 },
        seed: 1,
        distribution: 'as_written',
        passed: false,
        message: 'output 0 differs at [3, 7]: 0.25 vs 0.5',
        max_abs_error: 0.25,
        max_rel_error: 0.5,
        mean_abs_error: 0.1,
        mean_rel_error: 0.1,
      },
    ],
  },
  runner_seconds: 3,
  evaluated_at: '2026-11-23T00:00:00Z',
  sizes_used: { batch_size: 512, in_features: 1024, out_features: 1024 },
} as EvaluationState;

describe.each(['openai', 'anthropic'] as const)('the %s agent on a pytorch problem', (provider) => {
  const config = (): AgentsConfig => ({
    llmProvider: provider,
    llmBaseUrl: provider === 'openai' ? `${llm.url}/v1` : llm.url,
    llmApiKey: 'sk-test',
    llmModel: 'test-model',
    llmRetryBudgetMs: 3000,
  });

  test('sends the reference architecture and asks for ModelNew; extracts the Python file from the reply', async () => {
    // A reply with a snippet first and the whole file after: the file that defines ModelNew is the candidate.
    llm.queue({
      kind: 'text',
      text: `The tail can be fused:\n\n\`\`\`python\nx = gelu(x)\n\`\`\`\n\nHere is the file:\n\n\`\`\`python\n${MODEL_NEW}\n\`\`\`\n\nGELU and the scale now follow the GEMM directly.`,
    });
    const out = await createAgent({ provider }, config()).generate({
      ...context('201_Gemm_GELU_Scale', []),
      problem: GEMM,
    });
    expect(out.language).toBe('pytorch');
    expect(out.source.trim()).toBe(MODEL_NEW);
    const prompt = llm.lastPrompt();
    expect(prompt).toContain('You are given the following architecture:\n```python\nimport torch');
    expect(prompt).toContain('class Model(nn.Module)');
    expect(prompt).toContain('Name your optimized output architecture ModelNew');
    expect(prompt).toContain('torch.utils.cpp_extension.load_inline');
    expect(prompt).toContain('-fopenmp');
    expect(prompt).toContain('in_features = 1024, out_features = 1024 (scaled down from');
    expect(prompt).toContain('float32[512, 1024]');
    expect(prompt).toMatch(/```python\) holding the whole file/);
    expect(prompt).not.toContain('void solution');
  });

  test('feeds an earlier attempt’s correctness diff, sizes and source into the next prompt', async () => {
    llm.queue({ kind: 'text', text: `\`\`\`python\n${MODEL_NEW}\n\`\`\`` });
    const earlier: AgentAttemptView = {
      attempt_number: 1,
      status: 'completed',
      source: `${MODEL_NEW} * 0.5`,
      explanation: 'first try',
      evaluation_state: incorrect,
      agent_meta: { agent: provider },
    };
    await createAgent({ provider }, config()).generate({
      ...context('201_Gemm_GELU_Scale', [earlier], { attemptNumber: 2 }),
      problem: GEMM,
    });
    const prompt = llm.lastPrompt();
    expect(prompt).toContain('Attempt #1: incorrect - incorrect: output 0 differs at [3, 7]');
    expect(prompt).toContain('output 0 differs at [3, 7]: 0.25 vs 0.5');
    expect(prompt).toContain('# Source of attempt #1');
    expect(prompt).toContain('* self.scale * 0.5');
    expect(prompt).toContain('Write attempt #2');
  });
});

test('an accepted attempt’s timings against eager PyTorch and TorchScript reach the next prompt', async () => {
  llm.queue({ kind: 'text', text: `\`\`\`python\n${MODEL_NEW}\n\`\`\`` });
  const accepted = {
    ...incorrect,
    verdict: 'accepted',
    message: 'accepted',
    correctness: { passed: true, cases: [] },
    benchmarking_result: {
      optimized_time: 8,
      baseline_time: 10,
      speedup: 1.25,
      gbps: 0,
      gflops: 0,
      fraction_of_peak: 0,
      compiled_baseline_time: 9,
      speedup_over_compiled: 1.125,
      compiled_baseline: 'torchscript-freeze',
      cases: [
        {
          name: 'benchmark',
          sizes: { batch_size: 512 },
          optimized: { mean_ms: 8, median_ms: 8, min_ms: 8, max_ms: 8, stddev_ms: 0, samples: 10 },
          baseline: { mean_ms: 10, median_ms: 10, min_ms: 10, max_ms: 10, stddev_ms: 0, samples: 10 },
          gbps: 0,
          gflops: 0,
          fraction_of_peak: 0,
          fraction_of_peak_bandwidth: 0,
          fraction_of_peak_flops: 0,
          speedup: 1.25,
        },
      ],
      flagged_for_review: false,
      review_reasons: [],
    },
  } as EvaluationState;
  const config: AgentsConfig = { llmProvider: 'openai', llmBaseUrl: `${llm.url}/v1`, llmRetryBudgetMs: 3000 };
  const view: AgentAttemptView = {
    attempt_number: 1,
    status: 'completed',
    source: MODEL_NEW,
    explanation: 'x',
    evaluation_state: accepted,
    agent_meta: null,
  };
  await createAgent({ provider: 'openai' }, config).generate({
    ...context('201_Gemm_GELU_Scale', [view], { attemptNumber: 2 }),
    problem: GEMM,
    best: view,
  });
  const prompt = llm.lastPrompt();
  expect(prompt).toContain('# Best attempt so far: #1 ran in 8 ms, 1.25x eager PyTorch');
  expect(prompt).toContain(
    'Total: 8 ms vs reference 10 ms (speedup 1.25x); the reference compiled (torchscript-freeze) 9 ms',
  );
  expect(prompt).toContain('- benchmark {"batch_size":512}: median 8 ms (reference 10 ms)');
  expect(prompt).toContain('Sizes used: batch_size=512, in_features=1024, out_features=1024');
});

test('an accepted attempt’s torch facts (its kernels and Triton metadata) reach the next prompt', async () => {
  llm.queue({ kind: 'text', text: `\`\`\`python\n${MODEL_NEW}\n\`\`\`` });
  const accepted = {
    ...incorrect,
    verdict: 'accepted',
    message: 'accepted',
    correctness: { passed: true, cases: [] },
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
        torch: {
          device: 'cuda',
          torch_version: '2.11.0',
          kind: 'cuda_kernels',
          call_ms: 0.25,
          ops: [
            { name: 'gemm_gelu_kernel', calls: 1, self_ms: 0.12, total_ms: 0.12 },
            { name: 'ampere_sgemm_128x64_tn', calls: 1, self_ms: 0.05, total_ms: 0.05 },
          ],
          ops_total: 2,
          triton: [
            {
              name: 'gemm_gelu_kernel',
              compiled: true,
              num_warps: 8,
              num_stages: 3,
              shared_bytes: 98304,
              registers: 168,
              spills: 0,
              best_config: 'BLOCK_M: 128, BLOCK_N: 128',
            },
          ],
        },
      },
    },
  } as EvaluationState;
  const config: AgentsConfig = { llmProvider: 'openai', llmBaseUrl: `${llm.url}/v1`, llmRetryBudgetMs: 3000 };
  const view: AgentAttemptView = {
    attempt_number: 1,
    status: 'completed',
    source: MODEL_NEW,
    explanation: 'x',
    evaluation_state: accepted,
    agent_meta: null,
  };
  await createAgent({ provider: 'openai' }, config).generate({
    ...context('201_Gemm_GELU_Scale', [view], { attemptNumber: 2 }),
    problem: GEMM,
  });
  const prompt = llm.lastPrompt();
  expect(prompt).toContain('# Build facts of attempt #1');
  expect(prompt).toContain('One ModelNew call under torch.profiler (torch 2.11.0, cuda): 2 CUDA kernels');
  expect(prompt).toContain('- gemm_gelu_kernel: 1 call, 0.120 ms');
  expect(prompt).toContain(
    '- Triton kernel gemm_gelu_kernel: num_warps 8, num_stages 3, 98304 B shared, 168 registers, 0 spills (autotuned: BLOCK_M: 128, BLOCK_N: 128)',
  );
});
