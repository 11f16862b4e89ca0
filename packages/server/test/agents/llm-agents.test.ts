// The openai and anthropic agents against a local server that speaks their streaming protocols.
import type { EvaluationState } from '@kernelforge/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { type AgentAttemptView, AgentError, type AgentsConfig, createAgent } from '../../src/agents/index.js';
import { FakeLlm } from './helpers/fake-llm.js';
import { CPU } from './helpers/problems.js';
import { context } from './helpers/session.js';

const llm = new FakeLlm();
beforeAll(() => llm.start());
afterAll(() => llm.stop());
beforeEach(() => llm.reset());

const RELU = '19_ReLU';
const CODE =
  '#include <stdint.h>\nvoid solution(const float* x, float* y, int64_t n) {\n  for (int64_t i = 0; i < n; i++) y[i] = x[i] > 0 ? x[i] : 0;\n}';
const REPLY = `Here is a faster version.\n\n\`\`\`c\n${CODE}\n\`\`\`\n\nI removed the branch so the loop vectorises.`;

const compileError: EvaluationState = {
  verdict: 'compile_error',
  mode: 'benchmark',
  message: 'compile error',
  compile: {
    ok: false,
    compiler: 'gcc',
    flags: ['-O3', '-march=native', '-fopenmp'],
    log: "k.c:3:5: error: 'yy' undeclared (first use in this function)",
    duration_ms: 40,
  },
  correctness: null,
  runner_seconds: 0.1,
  evaluated_at: '2026-11-21T00:00:00Z',
};
const failedAttempt: AgentAttemptView = {
  attempt_number: 1,
  status: 'completed',
  source: 'void solution(const float* x, float* y, int64_t n) { yy[0] = 1; }',
  explanation: 'first try',
  evaluation_state: compileError,
  agent_meta: { agent: 'openai' },
};

describe.each(['openai', 'anthropic'] as const)('the %s agent', (provider) => {
  const config = (): AgentsConfig => ({
    llmProvider: provider,
    llmBaseUrl: provider === 'openai' ? `${llm.url}/v1` : llm.url,
    llmApiKey: 'sk-test',
    llmModel: 'test-model',
    llmRetryBudgetMs: 3000,
  });

  test('streams a reply, extracts the code block and records token usage', async () => {
    llm.queue({ kind: 'text', text: REPLY, usage: { input: 321, output: 123 } });
    const deltas: string[] = [];
    const agent = createAgent({ provider }, config());
    const out = await agent.generate(context(RELU, [], { onText: (d) => deltas.push(d) }));
    expect(out.source.trim()).toBe(CODE);
    expect(out.explanation).toBe('Here is a faster version.\n\nI removed the branch so the loop vectorises.');
    expect(out.usage).toEqual({ input_tokens: 321, output_tokens: 123 });
    expect(deltas.join('')).toBe(REPLY);
    const seen = llm.seen[0];
    expect(seen?.body.stream).toBe(true);
    expect(seen?.body.model).toBe('test-model');
    if (provider === 'openai') {
      expect(seen?.path).toBe('/v1/chat/completions');
      expect(seen?.headers.authorization).toBe('Bearer sk-test');
      expect(seen?.body.stream_options).toEqual({ include_usage: true });
    } else {
      expect(seen?.path).toBe('/v1/messages');
      expect(seen?.headers['x-api-key']).toBe('sk-test');
      expect(seen?.headers['anthropic-version']).toBe('2023-06-01');
    }
  });

  test('the prompt carries the problem, reference, device peaks, best attempt, last feedback and every instruction', async () => {
    llm.queue({ kind: 'text', text: REPLY });
    const agent = createAgent({ provider, model: 'other-model' }, config());
    const instructions = ['avoid OpenMP', 'use AVX-512 intrinsics'];
    await agent.generate(
      context(RELU, [failedAttempt], { instructions, currentInstruction: instructions[1] ?? null, attemptNumber: 2 }),
    );
    const prompt = llm.lastPrompt();
    expect(llm.seen[0]?.body.model).toBe('other-model');
    expect(prompt).toContain('19_ReLU');
    expect(prompt).toContain('void solution(const float* x, float* y, int64_t n)');
    expect(prompt).toContain('Reference (authoritative for correctness)');
    expect(prompt).toContain(`${CPU.peaks.bandwidth_gbps} GB/s`);
    expect(prompt).toContain(`${CPU.peaks.fp32_gflops} GFLOP/s`);
    expect(prompt).toContain("error: 'yy' undeclared");
    expect(prompt).toContain('Attempt #1: compile_error');
    for (const i of instructions) expect(prompt).toContain(i);
    expect(prompt).toMatch(/exactly one fenced code block/);
    expect(prompt).toMatch(/No I\/O/);
  });

  test('a 429 is retried after its Retry-After, then succeeds', async () => {
    llm.queue(
      { kind: 'status', status: 429, headers: { 'retry-after': '0' }, body: '{"error":{"message":"slow down"}}' },
      { kind: 'text', text: REPLY },
    );
    const out = await createAgent({ provider }, config()).generate(context(RELU, []));
    expect(out.source.trim()).toBe(CODE);
    expect(llm.seen).toHaveLength(2);
  });

  test('a 500 is retried with backoff, then succeeds', async () => {
    llm.queue({ kind: 'status', status: 500 }, { kind: 'text', text: REPLY });
    const out = await createAgent({ provider }, config()).generate(context(RELU, []));
    expect(out.source.trim()).toBe(CODE);
    expect(llm.seen).toHaveLength(2);
  });

  test('a persistent 500 ends in an AgentError fit to show on the attempt', async () => {
    llm.queue(
      ...Array.from({ length: 5 }, () => ({
        kind: 'status' as const,
        status: 503,
        body: '{"error":{"message":"overloaded"}}',
      })),
    );
    const err = await createAgent({ provider }, config())
      .generate(context(RELU, []))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AgentError);
    expect((err as AgentError).message).toBe(`${provider} answered 503: overloaded (gave up after 3 tries)`);
    expect(llm.seen).toHaveLength(3);
  });

  test('a 401 is not retried', async () => {
    llm.queue({ kind: 'status', status: 401, body: '{"error":{"message":"bad key"}}' });
    const err = await createAgent({ provider }, config())
      .generate(context(RELU, []))
      .catch((e: unknown) => e);
    expect((err as AgentError).message).toBe(`${provider} answered 401: bad key`);
    expect((err as AgentError).retryable).toBe(false);
    expect(llm.seen).toHaveLength(1);
  });

  test('a reply without a code block is an AgentError', async () => {
    llm.queue({ kind: 'text', text: 'I cannot help with that.' });
    const err = await createAgent({ provider }, config())
      .generate(context(RELU, []))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AgentError);
    expect((err as AgentError).message).toBe('the model returned no code block');
    expect((err as AgentError).retryable).toBe(false);
  });

  test('stopping the session aborts the request', async () => {
    const ac = new AbortController();
    ac.abort();
    const err = await createAgent({ provider }, config())
      .generate(context(RELU, [], { signal: ac.signal }))
      .catch((e: unknown) => e);
    expect((err as AgentError).message).toBe('generation stopped');
  });
});

test('a compile error from one attempt is fed into the next prompt', async () => {
  const config: AgentsConfig = {
    llmProvider: 'openai',
    llmBaseUrl: `${llm.url}/v1`,
    llmModel: 'm',
    llmRetryBudgetMs: 3000,
  };
  const agent = createAgent({ provider: 'openai' }, config);
  llm.queue(
    { kind: 'text', text: '```c\nvoid solution(const float* x, float* y, int64_t n) { yy[0] = 1; }\n```' },
    { kind: 'text', text: REPLY },
  );
  const first = await agent.generate(context(RELU, []));
  const history: AgentAttemptView[] = [{ ...failedAttempt, source: first.source }];
  await agent.generate(context(RELU, history, { attemptNumber: 2 }));
  expect(llm.seen).toHaveLength(2);
  expect(llm.lastPrompt()).toContain("k.c:3:5: error: 'yy' undeclared");
  expect(llm.lastPrompt()).toContain('yy[0] = 1;');
});

test("the previous attempt's build facts (vectorization misses, the hot loop, counters or why not) are in the next prompt", async () => {
  const config: AgentsConfig = {
    llmProvider: 'openai',
    llmBaseUrl: `${llm.url}/v1`,
    llmModel: 'm',
    llmRetryBudgetMs: 3000,
  };
  const assembly = [
    '0000000000001170 <solution._omp_fn.0>:',
    '    1178:\tvmovups (%rsi,%rax,1),%ymm0',
    '    117d:\tvmaxps %ymm1,%ymm0,%ymm0',
    '    1181:\tvmovups %ymm0,(%rdi,%rax,1)',
    '    118d:\tjne    1178 <solution._omp_fn.0+0x8>',
  ].join('\n');
  const accepted: EvaluationState = {
    ...compileError,
    verdict: 'accepted',
    message: 'accepted: 2.0x faster than the reference',
    compile: {
      ...(compileError.compile as NonNullable<EvaluationState['compile']>),
      ok: true,
      log: '',
      facts: {
        symbols: ['solution', 'solution._omp_fn.0'],
        assembly,
        assembly_truncated: false,
        hot_loop: { start_line: 2, end_line: 5, function: 'solution._omp_fn.0', vector_bits: 256 },
        vectorization: [
          { line: 3, column: 5, vectorized: true, widths: [32, 16], reasons: [] },
          { line: 7, column: 3, vectorized: false, widths: [], reasons: ['control flow in loop.'] },
        ],
        counters: { available: false, reason: 'not available here, because this machine exposes no hardware PMU' },
      },
    },
  };
  llm.queue({ kind: 'text', text: REPLY });
  const agent = createAgent({ provider: 'openai' }, config);
  await agent.generate(
    context(RELU, [{ ...failedAttempt, source: CODE, evaluation_state: accepted }], { attemptNumber: 2 }),
  );
  const prompt = llm.lastPrompt();
  expect(prompt).toContain('# Build facts of attempt #1');
  expect(prompt).toContain('Vectorized loops: line 3 (256-bit, 128-bit)');
  expect(prompt).toContain('- line 7: control flow in loop.');
  expect(prompt).toContain('Hot loop (innermost, in solution._omp_fn.0, 256-bit vectors)');
  expect(prompt).toContain('vmaxps %ymm1,%ymm0,%ymm0');
  expect(prompt).toContain('Hardware counters: not available here, because this machine exposes no hardware PMU');
});

test("a cuda attempt's build facts (registers, spills, occupancy and its basis, the PTX hot loop, no ncu) are in the next prompt", async () => {
  const config: AgentsConfig = {
    llmProvider: 'openai',
    llmBaseUrl: `${llm.url}/v1`,
    llmModel: 'm',
    llmRetryBudgetMs: 3000,
  };
  const occupancy = (block_size: number, occ: number, limiter: string, basis: string) => ({
    block_size,
    basis,
    blocks_per_sm: (occ * 64 * 32) / block_size,
    warps_per_sm: occ * 64,
    max_warps_per_sm: 64,
    occupancy: occ,
    limiter,
  });
  const kernel = { constant_bytes: null, barriers: 0, max_threads: null, stack_bytes: 0, shared_bytes: 0 };
  const accepted: EvaluationState = {
    ...compileError,
    verdict: 'accepted',
    message: 'accepted',
    compile: {
      ...(compileError.compile as NonNullable<EvaluationState['compile']>),
      compiler: 'nvcc',
      ok: true,
      log: '',
      facts: {
        symbols: ['_Z4gemmPKfS0_Pfi'],
        assembly:
          '.visible .entry _Z4gemmPKfS0_Pfi(\n$L__BB0_2:\n\tld.shared.f32 \t%f12, [%r4];\n\t@%p8 bra \t$L__BB0_2;\n}',
        assembly_truncated: false,
        hot_loop: { start_line: 2, end_line: 4, function: '_Z4gemmPKfS0_Pfi', vector_bits: null },
        vectorization: null,
        counters: {
          available: false,
          reason: 'not available here, because Nsight Compute (ncu) is not on this runner',
        },
        cuda: {
          arch: 'sm_90',
          user_constant_bytes: null,
          assembly_kind: 'ptx',
          limits_source: 'cuda_occupancy.h',
          kernels: [
            {
              ...kernel,
              name: 'gemm(float const*, float const*, float*, int)',
              mangled: '_Z4gemmPKfS0_Pfi',
              registers: 128,
              spill_store_bytes: 96,
              spill_load_bytes: 80,
              stack_bytes: 96,
              shared_bytes: 8192,
              occupancy: [occupancy(256, 0.25, 'registers', 'launched with 256 threads per block in the source')],
            },
            {
              ...kernel,
              name: 'scale(float*, int)',
              mangled: '_Z5scalePfi',
              registers: 8,
              spill_store_bytes: 0,
              spill_load_bytes: 0,
              occupancy: [
                occupancy(
                  128,
                  1,
                  'warps',
                  "assumed 128 threads: the launch's block size is not a constant of the source",
                ),
              ],
            },
          ],
        },
      },
    },
  };
  llm.queue({ kind: 'text', text: REPLY });
  const agent = createAgent({ provider: 'openai' }, config);
  await agent.generate(
    context(RELU, [{ ...failedAttempt, source: CODE, evaluation_state: accepted }], { attemptNumber: 2 }),
  );
  const prompt = llm.lastPrompt();
  expect(prompt).toContain('# Build facts of attempt #1');
  expect(prompt).toContain('Kernels as ptxas compiled them for sm_90:');
  expect(prompt).toContain(
    '- gemm(float const*, float const*, float*, int): 128 registers, SPILLS 96 B stored / 80 B loaded, 96 B stack, 8192 B shared; theoretical occupancy 25% at 256 threads (limited by registers)',
  );
  expect(prompt).toContain('theoretical occupancy 100% at 128 threads (limited by warps) (block size assumed');
  expect(prompt).toContain('Hot loop (PTX, innermost, in _Z4gemmPKfS0_Pfi)');
  expect(prompt).toContain('@%p8 bra');
  expect(prompt).not.toContain('Vectorized loops');
  expect(prompt).toContain('Hardware counters: not available here, because Nsight Compute (ncu) is not on this runner');
});
