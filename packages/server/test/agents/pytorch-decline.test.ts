// Agents do not write ModelNew files yet (issue 13 leaves that to a later change): on a pytorch problem every
// agent declines at once with a clear, non-retryable error instead of writing C that can never be accepted.
import { expect, test } from 'vitest';
import { AgentError, createAgent } from '../../src/agents/index.js';
import { problem } from './helpers/problems.js';
import { context } from './helpers/session.js';

const pytorchProblem = problem('101_HardSigmoid', { kind: 'pytorch', languages: ['pytorch'], signature: [] });

for (const [provider, config] of [
  ['tuner', {}],
  ['openai', { llmProvider: 'openai', llmApiKey: 'k' }],
  ['anthropic', { llmProvider: 'anthropic', llmApiKey: 'k' }],
] as const)
  test(`the ${provider} agent declines a pytorch problem with a clear message`, async () => {
    const err = await createAgent({ provider }, config)
      .generate({ ...context('x', []), problem: pytorchProblem })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AgentError);
    expect((err as AgentError).retryable).toBe(false);
    expect((err as AgentError).message).toMatch(/cannot write PyTorch \(ModelNew\) candidates for 101_HardSigmoid/);
  });
