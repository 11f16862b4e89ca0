// The tuner on a pytorch problem: the next ModelNew file of a measured search, and what it does and why.
import { AgentError, type AgentContext, type AgentResult } from '../../types.js';
import { renderTorch } from './render.js';
import { bestTried, chooseTorchPoint, rejectedValues, triedTorchPoints, type TorchTried } from './search.js';
import { ABOUT, describe, torchSpace } from './space.js';

const ms = (t: number) => `${t.toPrecision(3)} ms`;

function measured(t: TorchTried, compiledName = 'TorchScript freeze'): string {
  if (t.outcome === 'ok' && t.time !== null && t.speedup !== null)
    return `ran in ${ms(t.time)}, ${t.speedup.toFixed(2)}x eager PyTorch timed in the same run${
      t.speedupOverCompiled != null ? ` (${t.speedupOverCompiled.toFixed(2)}x the reference under ${compiledName})` : ''
    }`;
  if (t.outcome === 'bad') return `failed (${t.verdict}); its options are ruled out`;
  return 'has no measurement; it counts as tried';
}

export function generateTorch(ctx: AgentContext): AgentResult {
  const space = torchSpace(ctx.problem, ctx.device.cores ?? 1, ctx.device.kind);
  if ('why' in space)
    throw new AgentError(
      `The tuner cannot search ${ctx.problem.name} (${space.why}); pick an LLM agent (openai or anthropic).`,
    );
  const tried = triedTorchPoints(ctx.history);
  const choice = chooseTorchPoint(space, tried);
  if (!choice)
    throw new AgentError(
      `The tuner has measured every option worth trying for ${ctx.problem.name}; pick an LLM agent (openai or anthropic) to go further.`,
    );
  const source = renderTorch(space.reference, space.forward, space.tail, choice.point);
  const lines = [
    "Tuner (an honest, measured search over ways to run this PyTorch model; not an LLM). Every figure below is the runner's measurement of an earlier attempt; speedups are over eager PyTorch timed interleaved in the same run, which is how the search compares attempts on a machine whose load moves.",
  ];
  const last = tried[tried.length - 1];
  // The compiled baseline the runner times beside eager: TorchScript freeze on a cpu, torch.compile on cuda.
  const compiled = ctx.device.kind === 'cuda' ? 'torch.compile' : 'TorchScript freeze';
  if (last) lines.push(`Last: attempt ${last.attempt} (${describe(last.point)}) ${measured(last, compiled)}.`);
  const best = bestTried(tried);
  if (best) lines.push(`Best so far: attempt ${best.attempt} (${describe(best.point)}) ${measured(best, compiled)}.`);
  for (const [value, why] of rejectedValues(tried)) lines.push(`Ruled out ${value}: ${why}.`);
  lines.push(
    `Now: ${choice.change ? `${choice.change.option} ${choice.change.from}→${choice.change.to}` : describe(choice.point)}, because ${choice.reason}.`,
  );
  lines.push(`This attempt runs ${ABOUT[choice.point.mode]}.`);
  if (['fused', 'cuda_fused', 'triton_fused'].includes(choice.point.mode) && space.tail)
    lines.push(
      `The fused loop computes, per element: ${space.tail.ops.map((o) => o.wrote).join(' then ')}${
        space.tail.producerIsModule ? ', in place on the fresh output of the step before it' : ', into a new tensor'
      }.`,
    );
  if (choice.point.layout === 'channels_last')
    lines.push(
      'Parameters and 4-d inputs are converted to the channels-last memory format (NHWC), which oneDNN convolutions prefer.',
    );
  if (choice.point.threads > 0)
    lines.push(
      `torch.set_num_threads(${choice.point.threads}) in ModelNew's constructor: process-wide, but the candidate has a worker process of its own (the baselines run in theirs with the runner's ${ctx.device.cores ?? '?'} threads), so it changes only the candidate.`,
    );
  if (tried.length === 0 && space.skipped.length) lines.push(`Not in this search: ${space.skipped.join('; ')}.`);
  if (ctx.currentInstruction && !/^optimi[sz]e for speed$/i.test(ctx.currentInstruction.trim()))
    lines.push(
      `Cannot follow '${ctx.currentInstruction}': the PyTorch search only chooses among the options above; pick an LLM agent (openai or anthropic) for anything else.`,
    );
  lines.push('Whether this point is faster is what this attempt measures.');
  const explanation = lines.join('\n');
  ctx.onText?.(explanation);
  return {
    source,
    language: 'pytorch',
    explanation,
    agent_meta: {
      agent: 'tuner',
      variant: 'pytorch',
      torch_point: choice.point,
      point_key: choice.key,
      from_key: choice.fromKey,
      change: choice.change,
      instruction: ctx.currentInstruction,
    },
  };
}
