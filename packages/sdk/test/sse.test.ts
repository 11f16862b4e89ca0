import { describe, expect, it } from 'vitest';
import { parseEventStream } from '../src/core/sse.js';

function streamOf(chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

describe('parseEventStream', () => {
  it('parses ids, event names, multi-line data and comments across chunk boundaries', async () => {
    const messages = [];
    for await (const message of parseEventStream(
      streamOf([': keep-alive\n\nid: 1\nevent: up', 'date\ndata: {"a":\ndata: 1}\n\n', 'id: 2\r\ndata: x\r\n\r\n']),
    )) {
      messages.push(message);
    }
    expect(messages).toEqual([
      { id: '1', event: 'update', data: '{"a":\n1}', retry: undefined },
      { id: '2', event: 'message', data: 'x', retry: undefined },
    ]);
  });

  it('reads retry and drops an event without data', async () => {
    const messages = [];
    for await (const message of parseEventStream(streamOf(['retry: 250\nevent: x\n\nretry: 10\ndata: y\n\n']))) {
      messages.push(message);
    }
    expect(messages).toEqual([{ id: undefined, event: 'message', data: 'y', retry: 10 }]);
  });
});
