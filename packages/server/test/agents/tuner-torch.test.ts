// The tuner's PyTorch search: which options apply to a problem, and how measured results move the search.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EvaluationState, Problem } from '@kernelforge/sdk';
import { expect, test } from 'vitest';
import { type AgentAttemptView, AgentError, createAgent } from '../../src/agents/index.js';
import { CPU, PROBLEMS_DIR, problem } from './helpers/problems.js';
import { context } from './helpers/session.js';

function torchProblem(level: number, name: string): Problem {
  const source = readFileSync(join(PROBLEMS_DIR, 'pytorch', `level${level}`, `${name}.py`), 'utf8');
  return problem(name, { kind: 'pytorch', level, languages: ['pytorch'], signature: [], reference_source: source });
}

/** A runner result with these figures (the search reads only the verdict and the benchmark figures). */
function state(speedup: number | null, verdict = 'accepted'): EvaluationState {
  return {
    verdict,
    mode: 'benchmark',
    message: verdict,
    compile: null,
    correctness: null,
    runner_seconds: 1,
    evaluated_at: '2026-11-23T00:00:00Z',
    benchmarking_result:
      speedup === null
        ? null
        : {
            optimized_time: 10 / speedup,
            baseline_time: 10,
            speedup,
            gbps: 0,
            gflops: 0,
            fraction_of_peak: 0,
            cases: [],
            flagged_for_review: false,
            review_reasons: [],
          },
  } as EvaluationState;
}

async function next(p: Problem, history: AgentAttemptView[]) {
  const out = await createAgent({ provider: 'tuner' }, {}).generate({
    ...context(p.name, history),
    problem: p,
    device: CPU,
  });
  return out;
}

async function run(p: Problem, speedups: (number | null)[]) {
  const history: AgentAttemptView[] = [];
  const results = [];
  for (const s of speedups) {
    const out = await next(p, history);
    results.push(out);
    history.push({
      attempt_number: history.length + 1,
      status: 'completed',
      source: out.source,
      explanation: out.explanation,
      evaluation_state: s === null ? state(null, 'compile_error') : state(s),
      agent_meta: out.agent_meta ?? null,
    });
  }
  return { history, results, next: () => next(p, history) };
}

const modeOf = (r: { agent_meta?: Record<string, unknown> | undefined }) =>
  (r.agent_meta?.torch_point as { mode: string } | undefined)?.mode;

test('the tuner writes a complete ModelNew file for a pytorch problem, starting from the reference as written', async () => {
  const p = torchProblem(2, '201_Gemm_GELU_Scale');
  const first = await next(p, []);
  expect(first.language).toBe('pytorch');
  expect(first.source).toContain('class ModelNew(KfReference):');
  expect(first.source).toContain('class KfReference(nn.Module):');
  expect(first.agent_meta).toMatchObject({ agent: 'tuner', variant: 'pytorch', torch_point: { mode: 'eager' } });
  expect(first.explanation).toMatch(/the baseline point: the reference as written/);
  expect(first.explanation).toMatch(/not an LLM/);
});

test('after the baseline the search tries the fused C++ tail first, and explains what the loop computes', async () => {
  const p = torchProblem(2, '201_Gemm_GELU_Scale');
  const { results } = await run(p, [1.0]);
  const fused = await next(p, [
    {
      attempt_number: 1,
      status: 'completed',
      source: results[0]?.source ?? '',
      explanation: '',
      evaluation_state: state(1.0),
      agent_meta: results[0]?.agent_meta ?? null,
    },
  ]);
  expect(fused.agent_meta).toMatchObject({ torch_point: { mode: 'fused' }, change: { option: 'mode', to: 'fused' } });
  expect(fused.source).toContain('load_inline');
  expect(fused.source).toContain('0.044715f');
  expect(fused.source).toContain('self.scale');
  expect(fused.explanation).toContain('torch.nn.functional.gelu(x, approximate="tanh") then x * self.scale');
  expect(fused.explanation).toMatch(/attempt 1 .* ran in 10\.0 ms, 1\.00x eager PyTorch/);
});

test('a move that measured slower than the reference is ruled out and the search moves on from the best point', async () => {
  const p = torchProblem(2, '201_Gemm_GELU_Scale');
  // baseline 1.0x, fused 1.3x (kept), script from fused 0.8x (ruled out), inference from fused ...
  const { results, next: again } = await run(p, [1.0, 1.3, 0.8]);
  expect(results.map(modeOf)).toEqual(['eager', 'fused', 'script']);
  const fourth = await again();
  expect(fourth.explanation).toMatch(/Ruled out mode=script: attempt 3 ran at 0\.80x the reference/);
  expect(fourth.explanation).toMatch(/Best so far: attempt 2 \(fused/);
  expect(fourth.agent_meta?.from_key).toBe('mode=fused,layout=contiguous,threads=0');
  expect(modeOf(fourth)).not.toBe('script');
});

test('when every change measured slower than the reference, the search goes back to the reference and away from them', async () => {
  const p = torchProblem(2, '201_Gemm_GELU_Scale');
  const { next: again } = await run(p, [1.0, 0.9]);
  const third = await again();
  expect(third.agent_meta?.from_key).toBe('mode=eager,layout=contiguous,threads=0');
  expect(modeOf(third)).not.toBe('fused');
});

test('a failed attempt rules its option out', async () => {
  const p = torchProblem(1, '101_HardSigmoid');
  const { next: again } = await run(p, [1.0, null]);
  const third = await again();
  expect(third.explanation).toMatch(/Ruled out mode=fused: attempt 2 failed \(compile_error\)/);
});

test('options follow the problem: channels-last only with a convolution, no freeze with BatchNorm, no fused tail after a reduction', async () => {
  const conv = await run(torchProblem(2, '202_Conv2d_ReLU_BiasAdd'), [1, 1, 1, 1, 1, 1, 1, 1]);
  const points = conv.results.map((r) => r.agent_meta?.point_key);
  expect(points.some((k) => String(k).includes('channels_last'))).toBe(true);
  expect(new Set(points).size).toBe(points.length);
  const res = await next(torchProblem(3, '302_Residual_Conv_Block'), []);
  expect(res.explanation).toMatch(/Not in this search: TorchScript freeze: the model has BatchNorm/);
  const red = await next(torchProblem(2, '204_Matmul_Sum_Max_LeakyReLU'), []);
  expect(red.explanation).toMatch(/a fused C\+\+ tail: forward does not end in a chain of elementwise operations/);
});

test('the search ends with a clear message once every option worth trying is measured', async () => {
  const p = torchProblem(1, '104_Mean_reduction_over_a_dimension');
  const { next: again } = await run(p, [1, 1, 1, 1, 1, 1]);
  const err = await again().catch((e: unknown) => e);
  expect(err).toBeInstanceOf(AgentError);
  expect((err as AgentError).message).toMatch(/measured every option worth trying for 104_Mean_reduction/);
});

test('the tuner declines a pytorch file whose Model.forward it cannot read, with a clear message', async () => {
  const p = problem('x_Odd', {
    kind: 'pytorch',
    languages: ['pytorch'],
    signature: [],
    reference_source: 'import torch\nModel = torch.nn.Identity\n',
  });
  const err = await next(p, []).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(AgentError);
  expect((err as AgentError).retryable).toBe(false);
  expect((err as AgentError).message).toMatch(/cannot search x_Odd \(its file has no `class Model`/);
});
