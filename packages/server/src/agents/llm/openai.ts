// The `openai` agent: any OpenAI-compatible Chat Completions endpoint (OpenAI, vLLM, Ollama, OpenRouter), streamed.
import { type Agent, AgentError, type AgentContext, type AgentResult } from '../types.js';
import { extractSource } from './extract.js';
import { systemPrompt, userPrompt } from './prompt.js';
import { postWithRetry, StreamedError } from './request.js';
import type { LlmSettings } from './settings.js';
import { parseEventStream } from '@kernelforge/sdk/internal';

interface Chunk {
  choices?: { delta?: { content?: string | null } }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
  error?: { message?: string };
}

export class OpenAIAgent implements Agent {
  readonly provider = 'openai';
  constructor(private readonly settings: LlmSettings) {}

  async generate(ctx: AgentContext): Promise<AgentResult> {
    const body = {
      model: this.settings.model,
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: this.settings.maxTokens,
      messages: [
        { role: 'system', content: systemPrompt(ctx) },
        { role: 'user', content: userPrompt(ctx) },
      ],
    };
    const headers: Record<string, string> = { accept: 'text/event-stream' };
    if (this.settings.apiKey) headers.authorization = `Bearer ${this.settings.apiKey}`;
    const { text, usage } = await postWithRetry(
      'openai',
      `${this.settings.baseUrl}/chat/completions`,
      headers,
      body,
      this.settings,
      ctx.signal,
      (res) => consume(res, ctx.onText),
    );
    const { source, explanation } = extractSource(text, ctx.language);
    return {
      source,
      language: ctx.language,
      explanation,
      ...(usage ? { usage } : {}),
      agent_meta: { agent: 'openai', model: this.settings.model },
    };
  }
}

async function consume(res: Response, onText?: (d: string) => void) {
  let text = '';
  let usage: { input_tokens: number; output_tokens: number } | null = null;
  try {
    for await (const ev of parseEventStream(res.body as ReadableStream<Uint8Array>, { dispatchUnterminated: true })) {
      if (ev.data.trim() === '[DONE]') break;
      let chunk: Chunk;
      try {
        chunk = JSON.parse(ev.data) as Chunk;
      } catch {
        continue; // keep-alive comments and the like
      }
      if (chunk.error)
        throw new AgentError(`openai stream error: ${chunk.error.message ?? 'unknown'}`, { retryable: true });
      const delta = chunk.choices?.[0]?.delta?.content;
      if (delta) {
        text += delta;
        onText?.(delta);
      }
      if (chunk.usage)
        usage = { input_tokens: chunk.usage.prompt_tokens ?? 0, output_tokens: chunk.usage.completion_tokens ?? 0 };
    }
  } catch (err) {
    // Before any text the request can be retried whole; after, the user has already seen part of a reply.
    if (text && !(err instanceof AgentError)) throw new StreamedError((err as Error).message);
    throw err;
  }
  return { text, usage };
}
