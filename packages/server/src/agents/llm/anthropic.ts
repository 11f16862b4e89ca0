// The `anthropic` agent: the Messages API, streamed (content_block_delta text, message_start/message_delta usage).
import { type Agent, AgentError, type AgentContext, type AgentResult } from '../types.js';
import { extractSource } from './extract.js';
import { systemPrompt, userPrompt } from './prompt.js';
import { postWithRetry, StreamedError } from './request.js';
import type { LlmSettings } from './settings.js';
import { parseEventStream } from '@kernelforge/sdk/internal';

interface Event {
  type?: string;
  delta?: { type?: string; text?: string };
  message?: { usage?: { input_tokens?: number; output_tokens?: number } };
  usage?: { input_tokens?: number; output_tokens?: number };
  error?: { type?: string; message?: string };
}

export class AnthropicAgent implements Agent {
  readonly provider = 'anthropic';
  constructor(private readonly settings: LlmSettings) {}

  async generate(ctx: AgentContext): Promise<AgentResult> {
    const body = {
      model: this.settings.model,
      max_tokens: this.settings.maxTokens,
      stream: true,
      system: systemPrompt(ctx),
      messages: [{ role: 'user', content: userPrompt(ctx) }],
    };
    const headers: Record<string, string> = { 'anthropic-version': '2023-06-01', accept: 'text/event-stream' };
    if (this.settings.apiKey) headers['x-api-key'] = this.settings.apiKey;
    // The base URL may be given with or without the /v1 suffix.
    const url = `${this.settings.baseUrl.replace(/\/v1$/, '')}/v1/messages`;
    const { text, usage } = await postWithRetry('anthropic', url, headers, body, this.settings, ctx.signal, (res) =>
      consume(res, ctx.onText),
    );
    const { source, explanation } = extractSource(text, ctx.language);
    return {
      source,
      language: ctx.language,
      explanation,
      usage,
      agent_meta: { agent: 'anthropic', model: this.settings.model },
    };
  }
}

async function consume(res: Response, onText?: (d: string) => void) {
  let text = '';
  const usage = { input_tokens: 0, output_tokens: 0 };
  try {
    for await (const ev of parseEventStream(res.body as ReadableStream<Uint8Array>, { dispatchUnterminated: true })) {
      let e: Event;
      try {
        e = JSON.parse(ev.data) as Event;
      } catch {
        continue;
      }
      const type = e.type ?? ev.event;
      if (type === 'error') {
        const overloaded = e.error?.type === 'overloaded_error' || e.error?.type === 'api_error';
        throw new AgentError(`anthropic stream error: ${e.error?.message ?? e.error?.type ?? 'unknown'}`, {
          retryable: overloaded,
        });
      }
      if (type === 'message_start' && e.message?.usage) {
        usage.input_tokens = e.message.usage.input_tokens ?? 0;
        usage.output_tokens = e.message.usage.output_tokens ?? 0;
      } else if (type === 'content_block_delta' && e.delta?.type === 'text_delta' && e.delta.text) {
        text += e.delta.text;
        onText?.(e.delta.text);
      } else if (type === 'message_delta' && e.usage) {
        // message_delta carries the cumulative output count (and, on some versions, input too).
        if (e.usage.output_tokens !== undefined) usage.output_tokens = e.usage.output_tokens;
        if (e.usage.input_tokens) usage.input_tokens = e.usage.input_tokens;
      } else if (type === 'message_stop') break;
    }
  } catch (err) {
    if (text && !(err instanceof AgentError)) throw new StreamedError((err as Error).message);
    throw err;
  }
  return { text, usage };
}
