// @vitest-environment happy-dom
// Its own file: sonner keeps toasts in module state, and other files' tests raise the unauthorized toast.
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { currentPath, fakeApi, jwt, renderApp, settings, user } from './helpers';

beforeEach(() => localStorage.clear());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('logout', () => {
  it('removes the token and goes to / without the unauthorized toast', async () => {
    localStorage.setItem('access_token', jwt(3600));
    fakeApi({
      'GET /api/v1/settings': { body: settings },
      'GET /auth/users/me': { body: user },
      'GET /api/v1/tokens': { body: { data: [], count: 0 } },
    });
    const { location } = renderApp('/tokens/');
    fireEvent.click(await screen.findByRole('button', { name: 'Log out' }));
    await waitFor(() => expect(currentPath(location)).toBe('/'));
    expect(localStorage.getItem('access_token')).toBeNull();
    expect(await screen.findByRole('tab', { name: 'Log in' })).toBeTruthy();
    expect(screen.queryByText('Unauthorized, please login again')).toBeNull();
  });
});
