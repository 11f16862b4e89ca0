// The agents a session can use: the built-in tuner and, when configured, an OpenAI-compatible or Anthropic model.
import type { AgentsConfig } from './config.js';
import { AnthropicAgent } from './llm/anthropic.js';
import { OpenAIAgent } from './llm/openai.js';
import { TunerAgent } from './tuner/agent.js';
import { type Agent, AgentError } from './types.js';

export type { AgentAttemptView, AgentContext, AgentResult, Agent } from './types.js';
export { AgentError } from './types.js';
export { type AgentsConfig, agentsConfigFrom } from './config.js';

const LLM_PROVIDERS = ['openai', 'anthropic'] as const;
type LlmProvider = (typeof LLM_PROVIDERS)[number];

/** Used when the configuration names a provider but no model. */
export const DEFAULT_MODELS: Record<LlmProvider, string> = { openai: 'gpt-4.1', anthropic: 'claude-sonnet-4-5' };
const DEFAULT_BASE_URLS: Record<LlmProvider, string> = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com',
};

function configuredLlm(config: AgentsConfig): LlmProvider | null {
  const p = config.llmProvider?.trim().toLowerCase();
  return (LLM_PROVIDERS as readonly string[]).includes(p ?? '') ? (p as LlmProvider) : null;
}

export function listAgents(
  config: AgentsConfig,
): { provider: string; models: string[]; default_model: string | null }[] {
  const out: { provider: string; models: string[]; default_model: string | null }[] = [
    { provider: 'tuner', models: [], default_model: null },
  ];
  const llm = configuredLlm(config);
  if (llm) {
    const model = config.llmModel ?? DEFAULT_MODELS[llm];
    out.push({ provider: llm, models: [model], default_model: model });
  }
  return out;
}

export function createAgent(choice: { provider: string; model?: string | null }, config: AgentsConfig): Agent {
  return writesProblemLanguage(createAgentFor(choice, config));
}

/**
 * A pytorch problem's attempts are `ModelNew` files whatever the session's device would suggest (its queued
 * attempts may say `c` on a session created before pytorch problems had agents): the agent is told `pytorch`.
 */
function writesProblemLanguage(agent: Agent): Agent {
  return {
    provider: agent.provider,
    generate(ctx) {
      return agent.generate(ctx.problem.kind === 'pytorch' ? { ...ctx, language: 'pytorch' } : ctx);
    },
  };
}

function createAgentFor(choice: { provider: string; model?: string | null }, config: AgentsConfig): Agent {
  const provider = choice.provider.trim().toLowerCase();
  if (provider === 'tuner') return new TunerAgent(config.problemsDir);
  const llm = configuredLlm(config);
  if (llm && provider === llm) {
    const settings = {
      baseUrl: (config.llmBaseUrl ?? DEFAULT_BASE_URLS[llm]).replace(/\/+$/, ''),
      apiKey: config.llmApiKey ?? null,
      model: choice.model ?? config.llmModel ?? DEFAULT_MODELS[llm],
      maxTries: config.llmMaxTries ?? 3,
      retryBudgetMs: config.llmRetryBudgetMs ?? 60_000,
      timeoutMs: config.llmTimeoutMs ?? 300_000,
      maxTokens: config.llmMaxTokens ?? 8192,
    };
    return llm === 'openai' ? new OpenAIAgent(settings) : new AnthropicAgent(settings);
  }
  const available = listAgents(config)
    .map((a) => a.provider)
    .join(', ');
  throw new AgentError(`Unknown or unconfigured agent '${choice.provider}'; available: ${available}.`, {
    retryable: false,
  });
}
