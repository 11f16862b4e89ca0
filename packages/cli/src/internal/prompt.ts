// Reading a token from a terminal (without echo) or from a pipe.
import type { ReadableLike } from '../core/context.js';

export async function readStdin(stdin: AsyncIterable<unknown>): Promise<string> {
  let text = '';
  for await (const chunk of stdin)
    text += typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8');
  return text.trim();
}

/** One line typed or pasted at a prompt, not echoed. Ctrl-C or Ctrl-D gives an empty answer. */
export function readSecretLine(
  stdin: ReadableLike | NodeJS.ReadableStream,
  stderr: { write(text: string): unknown },
  prompt: string,
): Promise<string> {
  stderr.write(prompt);
  const input = stdin as NodeJS.ReadStream;
  return new Promise((resolve) => {
    let line = '';
    const wasRaw = input.isRaw;
    input.setRawMode?.(true);
    input.setEncoding('utf8');
    const done = (value: string) => {
      input.removeListener('data', onData);
      input.setRawMode?.(wasRaw ?? false);
      input.pause();
      stderr.write('\n');
      resolve(value);
    };
    const onData = (data: string) => {
      for (const char of data) {
        if (char === '\r' || char === '\n') return done(line);
        if (char === '\u0003' || char === '\u0004') return done('');
        if (char === '\u007f' || char === '\b') line = line.slice(0, -1);
        else if (char >= ' ') line += char;
      }
    };
    input.on('data', onData);
    input.resume();
  });
}
