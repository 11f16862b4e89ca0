// Access tokens: a checked signature is remembered, but expiry, not-before and issued-at are checked on every call.
import { expect, test } from 'vitest';
import { signAccessToken, verifyAccessToken } from '../../src/auth/access-token.js';

const SECRET = 'a-test-secret-of-enough-length-0123456789';
const T = Date.UTC(2026, 10, 25, 3, 0, 0);

test('a token verified once is still refused after it expires, and accepted again at a time it is valid', async () => {
  const token = await signAccessToken(SECRET, 'user-1', { expiresInSeconds: 60, now: T });
  expect(await verifyAccessToken(SECRET, token, T + 1000)).toBe('user-1');
  expect(await verifyAccessToken(SECRET, token, T + 60_000)).toBeNull();
  expect(await verifyAccessToken(SECRET, token, T + 59_000)).toBe('user-1');
});

test('a token issued in the future is refused until its time, then accepted', async () => {
  const token = await signAccessToken(SECRET, 'user-2', { expiresInSeconds: 600, now: T + 120_000 });
  expect(await verifyAccessToken(SECRET, token, T)).toBeNull();
  expect(await verifyAccessToken(SECRET, token, T + 120_000)).toBe('user-2');
  expect(await verifyAccessToken(SECRET, token, T)).toBeNull();
});

test('a bad signature or another secret is refused every time', async () => {
  const token = await signAccessToken(SECRET, 'user-3', { expiresInSeconds: 60, now: T });
  expect(await verifyAccessToken(SECRET, token, T)).toBe('user-3');
  expect(await verifyAccessToken(`${SECRET}-other`, token, T)).toBeNull();
  const [head, body, sig] = token.split('.');
  const forged = `${head}.${body}.${(sig as string).slice(0, -2)}${sig?.endsWith('AA') ? 'BB' : 'AA'}`;
  expect(await verifyAccessToken(SECRET, forged, T)).toBeNull();
  expect(await verifyAccessToken(SECRET, forged, T)).toBeNull();
});
