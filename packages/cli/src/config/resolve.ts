// Which server and which token a command uses, and where each came from (`kforge whoami` shows both).
import { readFile } from 'node:fs/promises';
import { UsageError } from '../core/errors.js';
import { type ConfigData, readConfig } from './config-file.js';
import { configFile, credentialsFile, type Env } from './paths.js';

export const DEFAULT_API_URL = 'http://localhost:8000';
export const DEFAULT_PROFILE = 'default';

export type ApiUrlSource = 'flag' | 'env' | 'profile' | 'default';
export type TokenSource = 'env' | 'file' | 'none';

export interface ResolvedConfig {
  profile: string;
  configFile: string;
  credentialsFile: string;
  apiUrl: string;
  apiUrlSource: ApiUrlSource;
  token: string | null;
  tokenSource: TokenSource;
  data: ConfigData;
}

export function profileName(flag: string | undefined, env: Env): string {
  const name = flag ?? env.KFORGE_PROFILE ?? DEFAULT_PROFILE;
  if (!/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/.test(name)) {
    throw new UsageError(`Invalid profile name '${name}'.`, 'Use letters, digits, dots, dashes and underscores.');
  }
  return name;
}

export function normalizeApiUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`Invalid API URL '${url}'.`, 'Give the server origin, e.g. http://localhost:8000.');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new UsageError(`Invalid API URL '${url}': use http or https.`);
  }
  return url.replace(/\/+$/, '');
}

export async function resolveConfig(options: { profile?: string; apiUrl?: string }, env: Env): Promise<ResolvedConfig> {
  const profile = profileName(options.profile, env);
  const file = configFile(env);
  const data = await readConfig(file);
  const entry = data.profiles[profile] ?? {};
  let apiUrl = DEFAULT_API_URL;
  let apiUrlSource: ApiUrlSource = 'default';
  if (options.apiUrl) {
    apiUrl = options.apiUrl;
    apiUrlSource = 'flag';
  } else if (env.KFORGE_API_URL) {
    apiUrl = env.KFORGE_API_URL;
    apiUrlSource = 'env';
  } else if (entry.api_url) {
    apiUrl = entry.api_url;
    apiUrlSource = 'profile';
  }
  const credentials = credentialsFile(env, profile);
  let token: string | null = env.KFORGE_TOKEN?.trim() || null;
  let tokenSource: TokenSource = token ? 'env' : 'none';
  if (!token) {
    token = await readToken(credentials);
    if (token) tokenSource = 'file';
  }
  return {
    profile,
    configFile: file,
    credentialsFile: credentials,
    apiUrl: normalizeApiUrl(apiUrl),
    apiUrlSource,
    token,
    tokenSource,
    data,
  };
}

// Read here rather than with the sdk's FileTokenStore so a command that needs no server never loads the sdk.
async function readToken(file: string): Promise<string | null> {
  try {
    return (await readFile(file, 'utf8')).trim() || null;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
