// Drives an agent through a few attempts the way the session loop does, evaluating each for real.
import type { EvaluationState } from '@kernelforge/sdk';
import type { Agent, AgentAttemptView, AgentContext } from '../../../src/agents/index.js';
import { CPU, problem } from './problems.js';

export function context(name: string, history: AgentAttemptView[], over: Partial<AgentContext> = {}): AgentContext {
  const ok = history.filter((h) => h.evaluation_state?.verdict === 'accepted');
  const best =
    ok.sort(
      (a, b) =>
        (a.evaluation_state?.benchmarking_result?.optimized_time ?? 0) -
        (b.evaluation_state?.benchmarking_result?.optimized_time ?? 0),
    )[0] ?? null;
  return {
    problem: problem(name),
    device: CPU,
    language: 'c',
    history,
    best,
    instructions: [],
    currentInstruction: null,
    attemptNumber: history.length + 1,
    signal: new AbortController().signal,
    ...over,
  };
}

export async function step(
  agent: Agent,
  name: string,
  history: AgentAttemptView[],
  evaluate: (source: string) => Promise<EvaluationState>,
  over: Partial<AgentContext> = {},
): Promise<AgentAttemptView> {
  const result = await agent.generate(context(name, history, over));
  const state = await evaluate(result.source);
  const view: AgentAttemptView = {
    attempt_number: history.length + 1,
    status: 'completed',
    source: result.source,
    explanation: result.explanation,
    evaluation_state: state,
    agent_meta: result.agent_meta ?? null,
  };
  history.push(view);
  return view;
}

export const timeOf = (v: AgentAttemptView) => v.evaluation_state?.benchmarking_result?.optimized_time ?? null;
export const keyOf = (v: AgentAttemptView) => String(v.agent_meta?.point_key);
