// A stand-in for Google's key endpoint: a local HTTP server publishing an RS256 JWKS, and a signer for id_tokens.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT } from 'jose';

export interface JwksServer {
  jwksUrl: string;
  issuer: string;
  /** Signs an id_token with the published key (or, with `foreignKey`, with a key the JWKS does not know). */
  sign(
    claims: JWTPayload & { email?: string; email_verified?: boolean; name?: string },
    opts?: { foreignKey?: boolean; audience?: string; issuer?: string; expiresIn?: string | number },
  ): Promise<string>;
  close(): Promise<void>;
}

export async function startJwksServer(opts: { audience: string; issuer?: string }): Promise<JwksServer> {
  const issuer = opts.issuer ?? 'https://accounts.google.com';
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const foreign = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    jwksUrl: `http://127.0.0.1:${port}/oauth2/v3/certs`,
    issuer,
    async sign(claims, o = {}) {
      return new SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256', kid: 'test-key' })
        .setIssuer(o.issuer ?? issuer)
        .setAudience(o.audience ?? opts.audience)
        .setSubject(String(claims.sub ?? '1234567890'))
        .setIssuedAt()
        .setExpirationTime(o.expiresIn ?? '1h')
        .sign(o.foreignKey ? foreign.privateKey : privateKey);
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
