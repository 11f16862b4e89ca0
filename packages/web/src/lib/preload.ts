// Route preloading on intent: links ask for the page chunk of their target on hover or focus.
import { matchPath } from './matchPath';

interface Preloadable {
  patterns: readonly string[];
  preload: () => Promise<unknown>;
}

const registry: Preloadable[] = [];

export function registerPreloads(entries: readonly Preloadable[]): void {
  registry.push(...entries);
}

export function preloadPath(href: string): void {
  const pathname = href.split(/[?#]/)[0] ?? href;
  for (const entry of registry) {
    if (entry.patterns.some((pattern) => matchPath(pattern, pathname))) {
      void entry.preload().catch(() => {});
      return;
    }
  }
}
