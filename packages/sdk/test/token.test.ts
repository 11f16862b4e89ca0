import { mkdtemp, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ACCESS_TOKEN_KEY,
  decodeJwtPayload,
  isTokenUsable,
  LocalStorageTokenStore,
  MemoryTokenStore,
  tokenExpiry,
} from '../src/core/token.js';
import { FileTokenStore } from '../src/node.js';

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const jwt = (payload: Record<string, unknown>) => `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url(payload)}.sig`;

describe('reading a JWT without verifying it', () => {
  it('reads exp', () => {
    expect(tokenExpiry(jwt({ sub: 'u', exp: 1_900_000_000 }))).toBe(1_900_000_000);
    expect(decodeJwtPayload(jwt({ sub: 'ü-ser' }))?.sub).toBe('ü-ser');
  });

  it('is logged in only with an unexpired, readable token (spec section 4)', () => {
    const now = new Date('2026-11-21T00:00:00Z');
    const nowS = now.getTime() / 1000;
    expect(isTokenUsable(jwt({ exp: nowS + 60 }), now)).toBe(true);
    expect(isTokenUsable(jwt({ exp: nowS - 1 }), now)).toBe(false);
    expect(isTokenUsable(jwt({ sub: 'no exp' }), now)).toBe(false);
    expect(isTokenUsable('not-a-jwt', now)).toBe(false);
    expect(isTokenUsable('a.!!!.b', now)).toBe(false);
    expect(isTokenUsable('', now)).toBe(false);
    expect(isTokenUsable(null, now)).toBe(false);
  });

  it('accepts opaque API tokens and leaves their expiry to the server', () => {
    expect(isTokenUsable('kf_abc')).toBe(true);
  });
});

describe('token stores', () => {
  it('memory', () => {
    const store = new MemoryTokenStore();
    expect(store.get()).toBeNull();
    store.set('t');
    expect(store.get()).toBe('t');
    store.clear();
    expect(store.get()).toBeNull();
  });

  it('localStorage under access_token', () => {
    const map = new Map<string, string>();
    const storage = {
      getItem: (k: string) => map.get(k) ?? null,
      setItem: (k: string, v: string) => void map.set(k, v),
      removeItem: (k: string) => void map.delete(k),
    };
    const store = new LocalStorageTokenStore(storage);
    store.set('abc');
    expect(map.get(ACCESS_TOKEN_KEY)).toBe('abc');
    expect(store.get()).toBe('abc');
    store.clear();
    expect(map.has('access_token')).toBe(false);
  });

  it('a file written with mode 0600', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kf-token-'));
    const store = new FileTokenStore(join(dir, 'nested', 'credentials'));
    expect(await store.get()).toBeNull();
    await store.set('kf_secret');
    expect(await store.get()).toBe('kf_secret');
    expect((await stat(store.path)).mode & 0o777).toBe(0o600);
    await store.clear();
    expect(await store.get()).toBeNull();
  });
});
