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

/** The user id of a valid, unexpired token; null for anything else (bad signature, expired, malformed). */
export async function verifyAccessToken(secret: string, token: string): Promise<string | null> {
  try {
    const { payload } = await jwtVerify(token, await key(secret), { algorithms: ['HS256'] });
    return typeof payload.sub === 'string' && payload.exp !== undefined ? payload.sub : null;
  } catch {
    return null;
  }
}
