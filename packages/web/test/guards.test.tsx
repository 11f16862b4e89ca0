// @vitest-environment happy-dom
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { currentPath, fakeApi, jwt, renderApp, settings, user } from './helpers';

beforeEach(() => localStorage.clear());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('route guards and redirects', () => {
  it('sends a visitor without a token from a signed-in page to /?login=1&redirect=<path> with the toast', async () => {
    fakeApi({ 'GET /api/v1/settings': { body: settings } });
    const { location } = renderApp('/tokens/');
    await waitFor(() => expect(currentPath(location)).toBe('/?login=1&redirect=%2Ftokens%2F'));
    expect(await screen.findByText('Unauthorized, please login again')).toBeTruthy();
  });

  it('sends a signed-in user from the login page to /kernels/generate-kernel', async () => {
    localStorage.setItem('access_token', jwt(3600));
    fakeApi({
      'GET /api/v1/settings': { body: settings },
      'GET /auth/users/me': { body: user },
      'GET /api/v1/problems': { body: { data: [], count: 0 } },
      'GET /api/v1/devices': { body: { data: [], count: 0 } },
      'GET /api/v1/agent-session': { body: { data: [], count: 0 } },
    });
    const { location } = renderApp('/');
    await waitFor(() => expect(currentPath(location)).toBe('/kernels/generate-kernel'));
    expect(await screen.findByRole('heading', { name: 'New kernel' })).toBeTruthy();
  });

  it('marks the section a page belongs to in the nav: a session page under My sessions, not New kernel', async () => {
    localStorage.setItem('access_token', jwt(3600));
    fakeApi({
      'GET /api/v1/settings': { body: settings },
      'GET /auth/users/me': { body: user },
      'GET /api/v1/problems': { body: { data: [], count: 0 } },
      'GET /api/v1/devices': { body: { data: [], count: 0 } },
      'GET /api/v1/agent-session': { body: { data: [], count: 0 } },
    });
    const current = () =>
      screen.getByRole('navigation', { name: 'Main' }).querySelector('[aria-current="page"]')?.textContent;
    const { unmount } = renderApp('/kernels/generate-kernel');
    await screen.findByRole('heading', { name: 'New kernel' });
    expect(current()).toBe('New kernel');
    unmount();
    renderApp('/kernels/00000000-0000-4000-8000-000000000000/attempts');
    await screen.findByRole('navigation', { name: 'Main' });
    await waitFor(() => expect(current()).toBe('My sessions'));
  });

  it('redirects /kernels/ to /kernels/generate-kernel', async () => {
    localStorage.setItem('access_token', jwt(3600));
    fakeApi({ 'GET /api/v1/settings': { body: settings }, 'GET /auth/users/me': { body: user } });
    const { location } = renderApp('/kernels/');
    await waitFor(() => expect(currentPath(location)).toBe('/kernels/generate-kernel'));
  });

  it('turns a 401 on a query into the toast, a cleared token and redirect=<current path>', async () => {
    localStorage.setItem('access_token', jwt(3600));
    fakeApi({
      'GET /api/v1/settings': { body: settings },
      'GET /auth/users/me': { body: user },
      'GET /api/v1/leaderboard': { status: 401, body: { detail: 'Could not validate credentials' } },
    });
    const { location } = renderApp('/leaderboard/');
    await waitFor(() => expect(currentPath(location)).toBe('/?login=1&redirect=%2Fleaderboard%2F'));
    expect(localStorage.getItem('access_token')).toBeNull();
    expect(await screen.findByText('Unauthorized, please login again')).toBeTruthy();
  });

  it('refuses /admin to a user who is not a superuser', async () => {
    localStorage.setItem('access_token', jwt(3600));
    const { calls } = fakeApi({ 'GET /api/v1/settings': { body: settings }, 'GET /auth/users/me': { body: user } });
    renderApp('/admin');
    expect(await screen.findByRole('heading', { name: 'Admin Dashboard' })).toBeTruthy();
    expect(await screen.findByText('Only administrators can open the admin dashboard.')).toBeTruthy();
    expect(calls.some((c) => c.includes('/agent-session/all'))).toBe(false);
  });

  it('shows All sessions on /admin to a superuser', async () => {
    localStorage.setItem('access_token', jwt(3600));
    fakeApi({
      'GET /api/v1/settings': { body: settings },
      'GET /auth/users/me': { body: { ...user, is_superuser: true } },
      'GET /api/v1/agent-session/all': { body: { data: [], count: 0 } },
      'GET /api/v1/users': { body: { data: [user], count: 1 } },
      'GET /api/v1/problems': { body: { data: [], count: 0 } },
    });
    renderApp('/admin/');
    expect(await screen.findByRole('heading', { name: 'All sessions' })).toBeTruthy();
  });

  it('requires the token search param on /verify-email and /magic-link-login', async () => {
    fakeApi({ 'GET /api/v1/settings': { body: settings } });
    renderApp('/verify-email');
    expect(await screen.findByText('Token is required')).toBeTruthy();
    cleanup();
    renderApp('/magic-link-login?token=');
    expect(await screen.findByText('Token is required')).toBeTruthy();
  });

  it("fails registration with 'Unknown error' when the response has no access token", async () => {
    fakeApi({
      'GET /api/v1/settings': { body: settings },
      'POST /auth/users/register': { body: { token: {}, user } },
    });
    renderApp('/verify-email?token=abc');
    expect(await screen.findByText('Unknown error')).toBeTruthy();
  });

  it('shows the server detail, or the fallback, when a magic link fails', async () => {
    fakeApi({
      'GET /api/v1/settings': { body: settings },
      'POST /auth/login/magic-link': { status: 400, body: { detail: 'Invalid or expired link' } },
    });
    renderApp('/magic-link-login?token=abc');
    expect(await screen.findByText('Invalid or expired link')).toBeTruthy();
  });
});
