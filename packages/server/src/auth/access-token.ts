// Access tokens: HS256 JWTs with sub (user id), iat and exp, signed with the server secret.
import { jwtVerify, SignJWT } from 'jose';

// Imported once per secret: handing jose the raw bytes makes it import a WebCrypto key on every request.
const keys = new Map<string, Promise<CryptoKey>>();
function key(secret: string): Promise<CryptoKey> {
  let k = keys.get(secret);
  if (!k) {
    k = crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
      'verify',
    ]);
    keys.set(secret, k);
  }
  return k;
}

export async function signAccessToken(
  secret: string,
  userId: string,
  opts: { expiresInSeconds: number; now?: number },
): Promise<string> {
  const iat = Math.floor((opts.now ?? Date.now()) / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(userId)
    .setIssuedAt(iat)
    .setExpirationTime(iat + opts.expiresInSeconds)
    .sign(await key(secret));
}

/** Clocks of replicas differ a little; a token issued further in the future than this was not issued by us. */
export const ISSUED_AT_SKEW_SECONDS = 60;

/**
 * The user id of a valid, unexpired token issued no later than now (plus a small clock skew); null for anything
 * else (bad signature, expired, issued in the future, no iat, malformed).
 */
export async function verifyAccessToken(
  secret: string,
  token: string,
  now: number = Date.now(),
): Promise<string | null> {
  try {
    const { payload } = await jwtVerify(token, await key(secret), {
      algorithms: ['HS256'],
      currentDate: new Date(now),
    });
    if (typeof payload.sub !== 'string' || payload.exp === undefined || typeof payload.iat !== 'number') return null;
    if (payload.iat > Math.floor(now / 1000) + ISSUED_AT_SKEW_SECONDS) return null;
    return payload.sub;
  } catch {
    return null;
  }
}
