// Google sign-in: verifies an id_token's signature against the configured JWKS, its issuer and audience.
import { createRemoteJWKSet, jwtVerify } from 'jose';
import type { Config } from '../config.js';

export interface GoogleIdentity {
  email: string;
  name: string | null;
}

export type GoogleVerifier = (idToken: string) => Promise<GoogleIdentity | null>;

/** Null when GOOGLE_CLIENT_ID is unset (Google sign-in off). The key set is fetched lazily and cached by jose. */
export function createGoogleVerifier(google: Config['google']): GoogleVerifier | null {
  const clientId = google.clientId;
  if (!clientId) return null;
  const keys = createRemoteJWKSet(new URL(google.jwksUrl));
  // Google issues both spellings; accept the bare host form of whatever issuer is configured too.
  const issuers = [google.issuer, google.issuer.replace(/^https:\/\//, '')];
  return async (idToken) => {
    try {
      const { payload } = await jwtVerify(idToken, keys, {
        issuer: issuers,
        audience: clientId,
        algorithms: ['RS256'],
      });
      const email = typeof payload.email === 'string' ? payload.email : null;
      // An unverified address proves nothing about who holds it.
      if (!email || payload.email_verified === false || payload.email_verified === 'false') return null;
      return { email, name: typeof payload.name === 'string' ? payload.name : null };
    } catch {
      return null;
    }
  };
}
