// Which agents a user may pick, and the tuner on custom problems (the reference itself, tuned conservatively).
import type { Problem } from '@kernelforge/sdk';
import { expect, test } from 'vitest';
import { AgentError, createAgent, listAgents } from '../../src/agents/index.js';
import { extractSource } from '../../src/agents/llm/extract.js';
import { compileOnly } from './helpers/gcc-eval.js';
import { PROBLEMS_DIR, problem } from './helpers/problems.js';
import { context } from './helpers/session.js';

test('the tuner is always listed; an LLM provider only when configured', () => {
  expect(listAgents({})).toEqual([{ provider: 'tuner', models: [], default_model: null }]);
  expect(listAgents({ llmProvider: 'anthropic', llmModel: 'claude-x' })).toEqual([
    { provider: 'tuner', models: [], default_model: null },
    { provider: 'anthropic', models: ['claude-x'], default_model: 'claude-x' },
  ]);
  expect(listAgents({ llmProvider: 'openai' })[1]?.provider).toBe('openai');
});

test('an unknown or unconfigured provider is an AgentError naming the available ones', () => {
  expect(() => createAgent({ provider: 'gemini' }, {})).toThrow(AgentError);
  expect(() => createAgent({ provider: 'openai' }, {})).toThrow(
    "Unknown or unconfigured agent 'openai'; available: tuner.",
  );
  expect(createAgent({ provider: 'tuner' }, {}).provider).toBe('tuner');
});

test('code extraction takes the fenced block of the right language, or a bare fence', () => {
  const two = 'Plan:\n```\nsteps\n```\nCode:\n```cpp\nextern "C" void solution() {}\n```\nDone.';
  expect(extractSource(two, 'cpp').source).toBe('extern "C" void solution() {}\n');
  expect(extractSource('```cuda\n__global__ void k() {}\n```', 'cuda').source).toContain('__global__');
  expect(extractSource('text\n```\nvoid solution(void) {}\n```', 'c')).toEqual({
    source: 'void solution(void) {}\n',
    explanation: 'text',
  });
  // A reply cut off before its closing fence still yields its code.
  expect(extractSource('```c\nvoid solution(void) {}', 'c').source).toBe('void solution(void) {}\n');
  expect(() => extractSource('no code here', 'c')).toThrow('the model returned no code block');
});

const custom = (reference: string, signature: Problem['signature']): Problem => ({
  ...problem('custom'),
  name: 'custom-1',
  custom: true,
  signature,
  prototype: 'void solution(...)',
  reference_source: reference,
});
const VEC = [
  { name: 'x', type: 'f32*', role: 'in', shape: ['n'] },
  { name: 'y', type: 'f32*', role: 'out', shape: ['n'] },
  { name: 'n', type: 'i64', role: 'size' },
] as Problem['signature'];

test('on a custom problem with a safe outer loop it renames the reference and adds OpenMP there', async () => {
  const ref = `#include <stdint.h>\n#include <math.h>\nvoid my_scale(const float* x, float* y, int64_t n) {\n  for (int64_t i = 0; i < n; i++) {\n    float t = x[i] * 2.0f;\n    y[i] = sqrtf(fabsf(t));\n  }\n}\n`;
  const tuner = createAgent({ provider: 'tuner' }, { problemsDir: PROBLEMS_DIR });
  const out = await tuner.generate({ ...context('x', []), problem: custom(ref, VEC) });
  expect(out.source).toMatch(/void solution\(const float\* x/);
  expect(out.source).not.toMatch(/my_scale/);
  expect(out.source).toMatch(/#pragma omp parallel for schedule\(static\)\n\s+for \(int64_t i = 0/);
  expect(out.explanation).toContain('outer loop looks safe');
  expect((await compileOnly(out.source)).ok).toBe(true);
});

test('on a custom running sum it leaves the loop serial and says why', async () => {
  const ref = `#include <stdint.h>\nvoid reference(const float* x, float* y, int64_t n) {\n  float acc = 0;\n  for (int64_t i = 0; i < n; i++) {\n    acc += x[i];\n    y[i] = acc;\n  }\n}\n`;
  const tuner = createAgent({ provider: 'tuner' }, {});
  const out = await tuner.generate({ ...context('x', []), problem: custom(ref, VEC) });
  expect(out.source).not.toMatch(/omp parallel/);
  expect(out.explanation).toMatch(/left serial: its outer loop updates acc/);
  expect((await compileOnly(out.source)).ok).toBe(true);
  const scan = `void reference(const float* x, float* y, long n) {\n  for (long i = 0; i < n; i++) y[i] = (i ? y[i - 1] : 0) + x[i];\n}\n`;
  const out2 = await tuner.generate({ ...context('x', []), problem: custom(scan, VEC) });
  expect(out2.source).not.toMatch(/omp parallel/);
});

test('on a custom CUDA reference the tuner says an LLM agent is needed', async () => {
  const ref = '__global__ void k(float* y) {}\nvoid reference(const float* x, float* y, long n) { k<<<1, 1>>>(y); }';
  const err = await createAgent({ provider: 'tuner' }, {})
    .generate({ ...context('x', []), problem: custom(ref, VEC) })
    .catch((e: unknown) => e);
  expect(err).toBeInstanceOf(AgentError);
  expect((err as AgentError).message).toMatch(/an LLM agent \(openai or anthropic\) is needed/);
});
