// A tiny leveled logger writing one JSON object per line to stderr (time, level, msg, then the fields), with the
// request id of the request being served, if any; `text` format is for a human at a terminal.
import { AsyncLocalStorage } from 'node:async_hooks';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';
export type LogFormat = 'json' | 'text';

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

/** The request being served (http/request-log.ts sets it): every line logged while serving it carries its id. */
export const requestScope = new AsyncLocalStorage<{ requestId: string }>();

export function createLogger(
  level: LogLevel = 'info',
  write: (line: string) => void = (l) => process.stderr.write(l),
  format: LogFormat = 'json',
): Logger {
  const at = (lvl: Exclude<LogLevel, 'silent'>) => (msg: string, fields?: Record<string, unknown>) => {
    if (ORDER[lvl] < ORDER[level]) return;
    const time = new Date().toISOString();
    const requestId = requestScope.getStore()?.requestId;
    const extra = { ...(requestId && !fields?.request_id ? { request_id: requestId } : {}), ...fields };
    if (format === 'text') {
      const tail = Object.keys(extra).length > 0 ? ` ${safeJson(extra)}` : '';
      write(`${time} ${lvl.toUpperCase().padEnd(5)} ${msg}${tail}\n`);
      return;
    }
    // time, level and msg first (and never overwritten by a field of the same name).
    write(`${safeJson(extra, { time, level: lvl, msg })}\n`);
  };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

function safeJson(fields: Record<string, unknown>, head: Record<string, unknown> = {}): string {
  try {
    return JSON.stringify({ ...head, ...fields, ...head }, (_k, v) =>
      v instanceof Error ? { name: v.name, message: v.message, stack: v.stack } : typeof v === 'bigint' ? String(v) : v,
    );
  } catch {
    return JSON.stringify({ ...head, fields: '[unserialisable fields]' });
  }
}
