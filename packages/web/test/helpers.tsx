// Test helpers: a JWT with a chosen expiry, a fake API behind fetch, and the app rendered at a path.
import { configure, render } from '@testing-library/react';
import { vi } from 'vitest';
import { memoryLocation } from 'wouter/memory-location';
import { App } from '../src/App';

// findBy* and waitFor give up after 1 s by default: too short for a lazily loaded page on a loaded 2-core machine
// (the suite runs these files beside others). Waiting longer costs nothing when the page is quick.
configure({ asyncUtilTimeout: 10_000 });

export function jwt(expSecondsFromNow: number): string {
  const b64 = (value: object) => btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  return `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ sub: 'u1', exp: Math.floor(Date.now() / 1000) + expSecondsFromNow })}.sig`;
}

export const settings = {
  posthog_key: null,
  posthog_host: null,
  feedback_survey_id: null,
  waitlist_survey_id: null,
  google_client_id: null,
  page_urls: { terms_of_service: null, privacy_policy: null, contact_us: null },
  auth_server: { url: '/auth', application_name: 'kernelforge' },
  agents: [],
};

export const user = {
  id: 'u1',
  email: 'ada@example.com',
  full_name: 'Ada',
  created_at: '2026-01-01T00:00:00Z',
  is_superuser: false,
  is_active: true,
};

type Reply = { status?: number; body: unknown } | ((req: Request) => { status?: number; body: unknown });

/** Answers `METHOD /path` from the table; anything else is a 404 with a detail. */
export function fakeApi(table: Record<string, Reply>) {
  const calls: string[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(
      typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
      'http://localhost',
    );
    const method = (init?.method ?? 'GET').toUpperCase();
    const key = `${method} ${url.pathname}`;
    calls.push(key);
    const entry = table[key];
    const reply = typeof entry === 'function' ? entry(new Request(url, init)) : entry;
    const status = reply?.status ?? (reply ? 200 : 404);
    const body = reply ? reply.body : { detail: 'Not Found' };
    const statusText =
      { 200: 'OK', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 500: 'Internal Server Error' }[status] ??
      '';
    return new Response(JSON.stringify(body), { status, statusText, headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock };
}

export function renderApp(path: string) {
  const location = memoryLocation({ path, record: true });
  const utils = render(<App location={{ hook: location.hook, searchHook: location.searchHook }} />);
  return { ...utils, location };
}

/** The current path + search of a memory location. */
export function currentPath(location: { history: string[] }): string {
  return location.history[location.history.length - 1] ?? '';
}
