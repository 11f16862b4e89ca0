// Access tokens on the client: reading `exp` without verifying, and where tokens are kept.

/** The key the web app keeps its access token under (spec section 3). */
export const ACCESS_TOKEN_KEY = 'access_token';

/** Decodes a JWT's payload without verifying it; undefined when it is not a readable JWT. */
export function decodeJwtPayload(token: string): Record<string, unknown> | undefined {
  const part = token.split('.')[1];
  if (!part) return undefined;
  try {
    const base64 = part
      .replace(/-/g, '+')
      .replace(/_/g, '/')
      .padEnd(Math.ceil(part.length / 4) * 4, '=');
    const binary = atob(base64);
    const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
    const payload: unknown = JSON.parse(new TextDecoder().decode(bytes));
    return payload && typeof payload === 'object' && !Array.isArray(payload)
      ? (payload as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** The `exp` claim in seconds since the epoch, or undefined. */
export function tokenExpiry(token: string): number | undefined {
  const exp = decodeJwtPayload(token)?.exp;
  return typeof exp === 'number' && Number.isFinite(exp) ? exp : undefined;
}

/**
 * Spec section 4: a stored token is checked for expiry from its exp claim; expired or unreadable means
 * logged out. API tokens (`kf_...`) are opaque and carry no expiry the client can read, so they are
 * accepted here and left to the server.
 */
export function isTokenUsable(token: string | null | undefined, now: Date = new Date()): token is string {
  if (!token) return false;
  if (token.startsWith('kf_')) return true;
  const exp = tokenExpiry(token);
  if (exp === undefined) return false;
  return exp * 1000 > now.getTime();
}

/** Where a client keeps its token: localStorage in the browser, a 0600 file in the CLI, memory in tests. */
export interface TokenStore {
  get(): string | null | Promise<string | null>;
  set(token: string): void | Promise<void>;
  clear(): void | Promise<void>;
}

export class MemoryTokenStore implements TokenStore {
  #token: string | null;
  constructor(token: string | null = null) {
    this.#token = token;
  }
  get() {
    return this.#token;
  }
  set(token: string) {
    this.#token = token;
  }
  clear() {
    this.#token = null;
  }
}

interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export class LocalStorageTokenStore implements TokenStore {
  readonly #storage: StorageLike;
  readonly #key: string;
  constructor(storage: StorageLike = globalThis.localStorage, key = ACCESS_TOKEN_KEY) {
    this.#storage = storage;
    this.#key = key;
  }
  get() {
    return this.#storage.getItem(this.#key);
  }
  set(token: string) {
    this.#storage.setItem(this.#key, token);
  }
  clear() {
    this.#storage.removeItem(this.#key);
  }
}
