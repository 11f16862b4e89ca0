// createClient: one authenticated HTTP core shared by the auth server and product API resources.
import { HttpClient, type Fetch } from './core/http.js';
import type { RetryOptions } from './core/retry.js';
import { MemoryTokenStore, type TokenStore } from './core/token.js';
import { AdminResource, TokensResource, UsersResource } from './resources/account.js';
import { AuthResource } from './resources/auth.js';
import { AgentsResource } from './resources/agents.js';
import { DevicesResource } from './resources/devices.js';
import { ProblemsResource } from './resources/problems.js';
import { SettingsResource } from './resources/settings.js';
import { LeaderboardsResource, SubmissionsResource } from './resources/leaderboards.js';
import { InstructionsResource, SessionsResource } from './resources/sessions.js';
import { SweepsResource } from './resources/sweeps.js';

export interface ClientOptions {
  /** The server's origin, e.g. `http://localhost:8000` (`/api/v1` is added), or '' for same-origin in a browser. */
  baseUrl: string;
  /** The auth server (settings `auth_server.url`); default `${baseUrl}/auth`. */
  authBaseUrl?: string;
  /** A fixed token (API token or JWT). Ignored when `tokenStore` is given. */
  token?: string;
  tokenStore?: TokenStore;
  fetch?: Fetch;
  /** Retries for idempotent calls (default 2). */
  maxRetries?: number;
  retry?: Partial<RetryOptions>;
  timeoutMs?: number;
  /** Sent as `x-kforge-client`, e.g. `kforge-cli/0.1.0`. */
  userAgent?: string;
}

export interface KernelforgeClient {
  readonly tokenStore: TokenStore;
  readonly auth: AuthResource;
  readonly settings: SettingsResource;
  readonly sessions: SessionsResource;
  readonly instructions: InstructionsResource;
  readonly problems: ProblemsResource;
  readonly devices: DevicesResource;
  readonly agents: AgentsResource;
  readonly leaderboards: LeaderboardsResource;
  readonly submissions: SubmissionsResource;
  readonly sweeps: SweepsResource;
  readonly tokens: TokensResource;
  readonly admin: AdminResource;
  readonly users: UsersResource;
}

export function createClient(options: ClientOptions): KernelforgeClient {
  const tokenStore = options.tokenStore ?? new MemoryTokenStore(options.token ?? null);
  const origin = options.baseUrl.replace(/\/+$/, '');
  const shared = {
    tokenStore,
    retry: { ...options.retry, ...(options.maxRetries !== undefined ? { maxRetries: options.maxRetries } : {}) },
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.userAgent ? { userAgent: options.userAgent } : {}),
  };
  const api = new HttpClient({ ...shared, baseUrl: `${origin}/api/v1` });
  const authServer = new HttpClient({ ...shared, baseUrl: options.authBaseUrl ?? `${origin}/auth` });
  return {
    tokenStore,
    auth: new AuthResource(authServer),
    settings: new SettingsResource(api),
    sessions: new SessionsResource(api),
    instructions: new InstructionsResource(api),
    problems: new ProblemsResource(api),
    devices: new DevicesResource(api),
    agents: new AgentsResource(api),
    leaderboards: new LeaderboardsResource(api),
    submissions: new SubmissionsResource(api),
    sweeps: new SweepsResource(api),
    tokens: new TokensResource(api),
    admin: new AdminResource(api),
    users: new UsersResource(api),
  };
}
