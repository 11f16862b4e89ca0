// The one sdk client of the app: same origin, token in localStorage (`access_token`).
import { createClient, isTokenUsable, type KernelforgeClient, LocalStorageTokenStore } from '@kernelforge/sdk';

const tokenStore = new LocalStorageTokenStore();
let authBaseUrl = '/auth';
let current: KernelforgeClient = build();

function build(): KernelforgeClient {
  return createClient({ baseUrl: '', authBaseUrl, tokenStore, userAgent: 'kernelforge-web' });
}

/** The sdk client; call it each time (it is rebuilt when the settings name another auth server). */
export function api(): KernelforgeClient {
  return current;
}

/**
 * Spec section 7: the auth server's base comes from the settings. A URL on a local host with another port
 * is the server's own idea of its public address (often http://localhost:8000), so its path is used on
 * this origin instead; a relative path or a genuinely separate host is used as given.
 */
export function setAuthServer(url: string | undefined): void {
  const next = resolveAuthBase(url);
  if (next === authBaseUrl) return;
  authBaseUrl = next;
  current = build();
}

export function resolveAuthBase(url: string | undefined, origin = globalThis.location?.origin ?? ''): string {
  if (!url) return '/auth';
  if (url.startsWith('/')) return url.replace(/\/+$/, '');
  try {
    const parsed = new URL(url);
    const here = origin ? new URL(origin) : undefined;
    const local = ['localhost', '127.0.0.1', '[::1]'].includes(parsed.hostname);
    if (!here || parsed.origin === here.origin || local) return parsed.pathname.replace(/\/+$/, '') || '/auth';
    return url.replace(/\/+$/, '');
  } catch {
    return '/auth';
  }
}

export function getToken(): string | null {
  return tokenStore.get();
}

export function clearToken(): void {
  tokenStore.clear();
}

/** Spec section 4: an expired or unreadable stored token is removed at start. */
export function dropUnusableToken(storage: Pick<Storage, 'getItem' | 'removeItem'> = localStorage): boolean {
  const token = storage.getItem('access_token');
  if (token !== null && !isTokenUsable(token)) {
    storage.removeItem('access_token');
    return true;
  }
  return false;
}
