// Security headers on every response: a Content-Security-Policy the web app runs under, nosniff, no framing, no referrer.
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { MiddlewareHandler } from 'hono';
import type { Config } from '../config.js';

/** Responses that are not HTML (JSON, SSE, files) may load nothing and be framed by nobody. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'";

/** The CSP hashes of the inline scripts in the built index.html (the theme is applied before the first paint). */
const inlineHashes = new Map<string, { mtimeMs: number; hashes: string[] }>();
export function inlineScriptHashes(webDist: string): string[] {
  const file = join(webDist, 'index.html');
  let mtimeMs: number;
  try {
    mtimeMs = statSync(file).mtimeMs;
  } catch {
    return [];
  }
  const cached = inlineHashes.get(file);
  if (cached?.mtimeMs === mtimeMs) return cached.hashes;
  const html = readFileSync(file, 'utf8');
  const hashes = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi)].map(
    (m) =>
      `'sha256-${createHash('sha256')
        .update(m[1] ?? '')
        .digest('base64')}'`,
  );
  inlineHashes.set(file, { mtimeMs, hashes });
  return hashes;
}

const origin = (url: string | null): string | null => {
  if (!url) return null;
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
};

/**
 * The web app's policy: its own scripts (plus the inline theme script by hash), its own API, and the third parties
 * the operator turned on: PostHog (POSTHOG_KEY) and Google sign-in (GOOGLE_CLIENT_ID). Styles allow 'unsafe-inline'
 * because the toast library injects a <style> element; scripts never do.
 */
export function appCsp(config: Pick<Config, 'webDist' | 'posthog' | 'google'>): string {
  const script = ["'self'", ...inlineScriptHashes(config.webDist)];
  const connect = ["'self'"];
  const style = ["'self'", "'unsafe-inline'"];
  const frame: string[] = [];
  if (config.posthog.key) {
    const host = origin(config.posthog.host ?? 'https://us.i.posthog.com');
    if (host) {
      connect.push(host);
      script.push(host);
      // PostHog's cloud serves its lazily loaded scripts from a sibling `-assets` host.
      const assets = host.replace(/^https:\/\/(\w+)\.i\.posthog\.com$/, 'https://$1-assets.i.posthog.com');
      if (assets !== host) {
        script.push(assets);
        connect.push(assets);
      }
    }
  }
  script.push('https://accounts.google.com/gsi/client');
  style.push('https://accounts.google.com/gsi/style');
  connect.push('https://accounts.google.com/gsi/');
  frame.push('https://accounts.google.com/gsi/');
  return [
    "default-src 'self'",
    `script-src ${script.join(' ')}`,
    `style-src ${style.join(' ')}`,
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src ${connect.join(' ')}`,
    `frame-src ${frame.length > 0 ? frame.join(' ') : "'none'"}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Sets the headers after the route answered, without overriding one a route chose. */
export function securityHeaders(config: Config): MiddlewareHandler {
  const hsts = config.publicUrl.startsWith('https://');
  return async (c, next) => {
    await next();
    const h = c.res.headers;
    const html = (h.get('content-type') ?? '').startsWith('text/html');
    const set = (name: string, value: string) => {
      if (!h.has(name)) h.set(name, value);
    };
    set('Content-Security-Policy', html ? appCsp(config) : API_CSP);
    set('X-Content-Type-Options', 'nosniff');
    set('X-Frame-Options', 'DENY');
    // Magic-link and verification tokens travel in page URLs: never send them on to another site.
    set('Referrer-Policy', 'no-referrer');
    set('Cross-Origin-Opener-Policy', config.google.clientId ? 'same-origin-allow-popups' : 'same-origin');
    if (hsts) set('Strict-Transport-Security', 'max-age=31536000');
  };
}
