// Content hashes for the build cache.
import { createHash } from 'node:crypto';

export function contentHash(...parts: string[]): string {
  const h = createHash('sha256');
  for (const p of parts) h.update(String(p.length)).update(':').update(p);
  return h.digest('hex').slice(0, 24);
}
