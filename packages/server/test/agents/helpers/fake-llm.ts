// A local HTTP server speaking the OpenAI Chat Completions and Anthropic Messages streaming protocols,
// answering from a script. Only the provider is stood in for; our agents run unchanged against it.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Reply =
  | { kind: 'text'; text: string; usage?: { input: number; output: number } }
  | { kind: 'status'; status: number; body?: string; headers?: Record<string, string> }
  /** Streams `text` (Chat Completions), then holds the response open until the client goes away. */
  | { kind: 'hang'; text: string };

export interface Seen {
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

export class FakeLlm {
  readonly seen: Seen[] = [];
  private script: Reply[] = [];
  /** Hanging replies whose client went away (cut its request). */
  hangsCut = 0;
  private server: Server | null = null;
  url = '';

  /** Forget earlier requests and unused replies (between tests). */
  reset() {
    this.seen.length = 0;
    this.script = [];
    this.hangsCut = 0;
  }

  queue(...replies: Reply[]) {
    this.script.push(...replies);
  }

  async start(): Promise<void> {
    this.server = createServer(async (req, res) => {
      let raw = '';
      for await (const chunk of req) raw += chunk;
      const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
      this.seen.push({ path: req.url ?? '', headers: req.headers, body });
      const reply = this.script.shift() ?? {
        kind: 'status',
        status: 500,
        body: '{"error":{"message":"script exhausted"}}',
      };
      if (reply.kind === 'status') {
        res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
        return res.end(reply.body ?? '{"error":{"message":"boom"}}');
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      if (reply.kind === 'hang') {
        res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: reply.text } }] })}\n\n`);
        res.on('close', () => this.hangsCut++);
        return;
      }
      // Small pieces, so the client must reassemble text across chunks (and across TCP writes).
      const pieces = reply.text.match(/[\s\S]{1,7}/g) ?? [];
      const usage = reply.usage ?? { input: 11, output: 22 };
      if (req.url?.endsWith('/chat/completions')) {
        for (const p of pieces)
          res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: p } }] })}\n\n`);
        res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`);
        res.write(
          `data: ${JSON.stringify({ choices: [], usage: { prompt_tokens: usage.input, completion_tokens: usage.output } })}\n\n`,
        );
        res.write('data: [DONE]\n\n');
      } else {
        const ev = (type: string, data: unknown) =>
          res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...(data as object) })}\n\n`);
        ev('message_start', { message: { id: 'm1', usage: { input_tokens: usage.input, output_tokens: 1 } } });
        ev('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
        res.write('event: ping\ndata: {"type": "ping"}\n\n');
        for (const p of pieces) ev('content_block_delta', { index: 0, delta: { type: 'text_delta', text: p } });
        ev('content_block_stop', { index: 0 });
        ev('message_delta', { delta: { stop_reason: 'end_turn' }, usage: { output_tokens: usage.output } });
        ev('message_stop', {});
      }
      res.end();
    });
    await new Promise<void>((r) => this.server?.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }

  /** The text of the last request's prompt (system + messages), whichever protocol. */
  lastPrompt(): string {
    const b = this.seen[this.seen.length - 1]?.body ?? {};
    const msgs = (b.messages as { content: string }[] | undefined) ?? [];
    return [String(b.system ?? ''), ...msgs.map((m) => m.content)].join('\n');
  }
}
