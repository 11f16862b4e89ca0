// One provider connection's settings, resolved from AgentsConfig by createAgent.
export interface LlmSettings {
  baseUrl: string;
  apiKey: string | null;
  model: string;
  /** Tries in all (first included) for 429, 5xx and network errors. */
  maxTries: number;
  /** Bound on the total time spent waiting between tries. */
  retryBudgetMs: number;
  /** One request, from sending to the end of its stream. */
  timeoutMs: number;
  maxTokens: number;
}
