// Builds what an agent sees for one attempt: the problem, the device, this session's history, best attempt and instructions.
import type { Device, Language, Problem } from '@kernelforge/sdk';
import type { AgentAttemptView, AgentContext } from '../../agents/index.js';
import { customToProblem } from '../sessions/custom-problem.js';
import type { AppContext } from '../../context.js';
import { type AttemptRow, bestAttempt, type SessionRow } from '../../db/rows.js';
import type { CustomProblemInput } from '@kernelforge/sdk';
import { sessionAttempts, sessionInstructions } from '../sessions/queries.js';

const view = (a: AttemptRow): AgentAttemptView => ({
  attempt_number: a.attempt_number,
  status: a.status,
  source: a.source,
  explanation: a.explanation ?? a.error,
  evaluation_state: a.evaluation_state,
  agent_meta: a.agent_meta,
});

export async function problemOf(ctx: AppContext, session: SessionRow): Promise<Problem> {
  if (session.custom_problem) {
    return customToProblem(session.problem_name, session.custom_problem as unknown as CustomProblemInput);
  }
  return ctx.catalogue.require(session.problem_name);
}

/** The session's device; a device whose runners are all gone still has a name and (unknown) peaks. */
export async function deviceOf(ctx: AppContext, id: string): Promise<Device> {
  const found = await ctx.devices.find(id);
  if (found) return found;
  return {
    id,
    kind: id.startsWith('cuda') ? 'cuda' : 'cpu',
    name: id,
    peaks: { bandwidth_gbps: 0, fp32_gflops: 0, source: 'unknown' },
    available: false,
    runners: 0,
    languages: [],
  };
}

export async function buildAgentContext(
  ctx: AppContext,
  session: SessionRow,
  attempt: AttemptRow,
  signal: AbortSignal,
  onText: (delta: string) => void,
): Promise<AgentContext> {
  const [problem, device, attempts, instructions] = await Promise.all([
    problemOf(ctx, session),
    deviceOf(ctx, session.device),
    sessionAttempts(ctx.db, session.id),
    sessionInstructions(ctx.db, session.id),
  ]);
  const earlier = attempts.filter(
    (a) => a.attempt_number < attempt.attempt_number && (a.status === 'completed' || a.status === 'failed'),
  );
  const completed = earlier.filter((a) => a.status === 'completed');
  const best = completed.length > 0 ? bestAttempt(completed) : null;
  const active = instructions.filter((i) => i.deleted_at === null && i.status !== 'stopped');
  const current = instructions.find((i) => i.id === attempt.instruction_id);
  return {
    problem,
    device,
    language: problem.kind === 'pytorch' ? 'pytorch' : (attempt.language as Language),
    history: earlier.map(view),
    best: best ? view(best) : null,
    instructions: active.map((i) => i.text),
    currentInstruction: current?.text ?? null,
    attemptNumber: attempt.attempt_number,
    signal,
    onText,
  };
}
