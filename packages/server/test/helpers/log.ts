// A logger that keeps every line, for tests that read what the server printed (e.g. the first sign-in link).
import { createLogger, type Logger } from '../../src/log.js';

export function captureLog(): { log: Logger; lines: string[]; text(): string } {
  const lines: string[] = [];
  return { log: createLogger('debug', (l) => lines.push(l)), lines, text: () => lines.join('') };
}
