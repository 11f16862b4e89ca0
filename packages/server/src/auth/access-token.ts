// Access tokens: HS256 JWTs with sub (user id), iat and exp, signed with the server secret; `via: 'link'` on one
// issued for an emailed sign-in link (a recent one lets its holder replace a forgotten password, services/account.ts).
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
  opts: { expiresInSeconds: number; now?: number; via?: SignedInVia },
): Promise<string> {
  const iat = Math.floor((opts.now ?? Date.now()) / 1000);
  return new SignJWT(opts.via ? { via: opts.via } : {})
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(userId)
    .setIssuedAt(iat)
    .setExpirationTime(iat + opts.expiresInSeconds)
    .sign(await key(secret));
}

/** How a token's holder signed in, where it matters: `link`, by a one-time link mailed to the account's address. */
export type SignedInVia = 'link';

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
  return (await accessTokenFacts(secret, token, now))?.userId ?? null;
}

/** verifyAccessToken's user id, with when the token was issued (ms) and how its holder signed in. */
export async function accessTokenFacts(
  secret: string,
  token: string,
  now: number = Date.now(),
): Promise<{ userId: string; issuedAt: number; via: SignedInVia | null } | null> {
  const claims = await verifiedClaims(secret, token, now);
  if (!claims) return null;
  const seconds = Math.floor(now / 1000);
  // What depends on the time is checked on every call, cached signature or not (jose's rules: exp is the first
  // second the token is no longer valid, nbf the first it is).
  if (claims.exp <= seconds || (claims.nbf !== undefined && claims.nbf > seconds)) return null;
  if (claims.iat > seconds + ISSUED_AT_SKEW_SECONDS) return null;
  return { userId: claims.sub, issuedAt: claims.iat * 1000, via: claims.via };
}

interface Claims {
  sub: string;
  iat: number;
  exp: number;
  nbf: number | undefined;
  via: SignedInVia | null;
}

/**
 * Signatures already checked, per secret: a token's signature is valid or not for ever, and checking it (a
 * WebCrypto HMAC, a thread-pool job) was the largest share of an authenticated GET's own work (bench/README.md).
 * Only well-formed tokens with a good signature, valid when first seen, are kept; bounded, oldest out first.
 */
const verified = new Map<string, Map<string, Claims>>();
const VERIFIED_MAX = 10_000;

async function verifiedClaims(secret: string, token: string, now: number): Promise<Claims | null> {
  let cache = verified.get(secret);
  const hit = cache?.get(token);
  if (hit) return hit;
  let claims: Claims;
  try {
    // Only a token valid now is kept; the caller checks the times again on every later call.
    const { payload } = await jwtVerify(token, await key(secret), {
      algorithms: ['HS256'],
      currentDate: new Date(now),
    });
    const { sub, iat, exp, nbf, via } = payload;
    if (typeof sub !== 'string' || typeof iat !== 'number' || typeof exp !== 'number') return null;
    claims = { sub, iat, exp, nbf: typeof nbf === 'number' ? nbf : undefined, via: via === 'link' ? 'link' : null };
  } catch {
    return null;
  }
  if (!cache) {
    cache = new Map();
    verified.set(secret, cache);
  }
  if (cache.size >= VERIFIED_MAX) cache.delete(cache.keys().next().value as string);
  cache.set(token, claims);
  return claims;
}
