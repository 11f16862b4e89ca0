// The real server for the CLI's tests: packages/server's own test helper, loaded by path so the CLI's
// type-check does not pull in the server's sources.
import type { User } from '@kernelforge/sdk';

export interface TestServer {
  url: string;
  admin: { email: string; password: string; token: string };
  createUser(opts?: {
    email?: string;
    full_name?: string;
    is_superuser?: boolean;
  }): Promise<{ user: User; token: string }>;
  request(path: string, init?: RequestInit & { token?: string; json?: unknown }): Promise<Response>;
  stop(): Promise<void>;
}

export interface TestServerOptions {
  env?: Record<string, string>;
  localRunner?: boolean;
}

const HELPER = '../../../server/test/helpers/server.ts';

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const helper = (await import(/* @vite-ignore */ HELPER)) as {
    startTestServer(options: TestServerOptions): Promise<TestServer>;
  };
  return helper.startTestServer(options);
}

/** An API token (kf_...) for a user, made through the API as the web app would. */
export async function createApiToken(server: TestServer, jwt: string, name = 'cli-test'): Promise<string> {
  const response = await server.request('/api/v1/tokens', { method: 'POST', token: jwt, json: { name } });
  if (!response.ok) throw new Error(`POST /api/v1/tokens: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { token: string }).token;
}
