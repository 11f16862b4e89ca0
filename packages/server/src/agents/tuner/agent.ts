// The `tuner` agent: renders the next point of a problem's tuning space, chosen from the measured history.
import { AgentError, type Agent, type AgentContext, type AgentResult } from '../types.js';
import { planCustom } from './custom.js';
import { explainChoice } from './explain.js';
import { fitVariant } from './fit.js';
import { triedPoints } from './points.js';
import { renderTemplate } from './render.js';
import { choosePoint } from './search.js';
import { defaultProblemsDir, loadSpace, pickVariant, type Variant } from './space.js';
import { steer } from './steer.js';
import { generateTorch } from './torch/agent.js';

export class TunerAgent implements Agent {
  readonly provider = 'tuner';
  constructor(private readonly problemsDir: string = defaultProblemsDir()) {}

  async generate(ctx: AgentContext): Promise<AgentResult> {
    if (ctx.signal.aborted) throw new AgentError('generation stopped', { retryable: false });
    if (ctx.problem.kind === 'pytorch') return generateTorch(ctx);
    const { variant, note } = this.variantFor(ctx);
    const steering = steer(variant, ctx.instructions, ctx.currentInstruction);
    const tried = triedPoints(variant, ctx.history);
    const choice = choosePoint(variant, tried, steering, {
      currentInstruction: ctx.currentInstruction,
      seed: ctx.attemptNumber,
    });
    if (!choice) {
      throw new AgentError(
        `The tuner has tried every point of its space for ${ctx.problem.name} under these instructions; pick an LLM agent (openai or anthropic) to go further.`,
      );
    }
    const source = renderTemplate(variant.template, { ...variant.constants, ...choice.params });
    const explanation = [explainChoice(variant, choice, tried, steering, ctx.history), note].filter(Boolean).join('\n');
    ctx.onText?.(explanation);
    return {
      source,
      language: variant.language,
      explanation,
      agent_meta: {
        agent: 'tuner',
        variant: variant.name,
        params: choice.params,
        point_key: choice.key,
        from_key: choice.fromKey,
        change: choice.moves.length === 1 ? choice.moves[0] : null,
        instruction: ctx.currentInstruction,
      },
    };
  }

  private variantFor(ctx: AgentContext): { variant: Variant; note: string } {
    const backend = ctx.device.kind;
    const space = ctx.problem.custom ? null : loadSpace(this.problemsDir, ctx.problem.name);
    if (space) {
      const variant = pickVariant(space, backend, ctx.device.cpu?.vector_isa);
      if (variant)
        return { variant: backend === 'cpu' ? fitVariant(variant, ctx.device, ctx.problem) : variant, note: '' };
      throw new AgentError(
        `The tuner has no ${backend} starting points for ${ctx.problem.name}; pick an LLM agent (openai or anthropic).`,
      );
    }
    if (backend !== 'cpu') {
      throw new AgentError(
        `The tuner can only tune a custom problem's reference on cpu; an LLM agent (openai or anthropic) is needed for ${backend}.`,
      );
    }
    const plan = planCustom(ctx.problem, ctx.language === 'cpp' ? 'cpp' : 'c');
    if ('why' in plan) {
      throw new AgentError(
        `The tuner cannot tune this problem (${plan.why}); an LLM agent (openai or anthropic) is needed.`,
      );
    }
    return {
      variant: plan.variant,
      note: `Custom problem: the tuner varies pragmas on your reference; ${plan.parallel}.`,
    };
  }
}
