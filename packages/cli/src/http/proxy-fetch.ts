// A fetch that honours HTTPS_PROXY / HTTP_PROXY / NO_PROXY (undici's EnvHttpProxyAgent).
import type { Env } from '../config/paths.js';

const PROXY_VARS = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'] as const;

export function proxyConfigured(env: Env): boolean {
  return PROXY_VARS.some((name) => Boolean(env[name]));
}

/**
 * Without a proxy variable Node's built-in fetch (undici too) is used as is, which spares loading the
 * undici package (about 50 ms) on every command. With one, undici's fetch goes through EnvHttpProxyAgent.
 */
export async function createFetch(env: Env): Promise<typeof globalThis.fetch> {
  if (!proxyConfigured(env)) return (input, init) => globalThis.fetch(input, init);
  const { EnvHttpProxyAgent, fetch } = await import('undici');
  const pick = (upper: string, lower: string) => env[upper] || env[lower] || undefined;
  const httpsProxy = pick('HTTPS_PROXY', 'https_proxy');
  const httpProxy = pick('HTTP_PROXY', 'http_proxy');
  const noProxy = pick('NO_PROXY', 'no_proxy');
  const dispatcher = new EnvHttpProxyAgent({
    ...(httpProxy ? { httpProxy } : {}),
    ...(httpsProxy ? { httpsProxy } : {}),
    ...(noProxy ? { noProxy } : {}),
  });
  return ((input: Parameters<typeof globalThis.fetch>[0], init?: RequestInit) =>
    fetch(input as never, { ...(init as object), dispatcher } as never)) as unknown as typeof globalThis.fetch;
}
