// What the agents need from the server's configuration, as a small structural type tests can build by hand.
import type { Config } from '../config.js';

export interface AgentsConfig {
  /** `openai` or `anthropic`; unset means only the tuner is offered. */
  llmProvider?: string;
  llmBaseUrl?: string;
  llmApiKey?: string;
  llmModel?: string;
  /** Where `problems/<name>/tuner/` lives; defaults to the repository's `problems/`. */
  problemsDir?: string;
  /** Provider retries: how many tries in all, and the bound on the total wait between them (ms). */
  llmMaxTries?: number;
  llmRetryBudgetMs?: number;
  /** One request's timeout (ms), from sending to the last streamed byte. */
  llmTimeoutMs?: number;
  /** Cap on the reply's tokens. */
  llmMaxTokens?: number;
}

export function agentsConfigFrom(config: Config): AgentsConfig {
  const out: AgentsConfig = { problemsDir: config.problemsDir };
  if (config.llm.provider) out.llmProvider = config.llm.provider;
  if (config.llm.baseUrl) out.llmBaseUrl = config.llm.baseUrl;
  if (config.llm.apiKey) out.llmApiKey = config.llm.apiKey;
  if (config.llm.model) out.llmModel = config.llm.model;
  return out;
}
