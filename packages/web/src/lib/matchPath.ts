// A strict path matcher for the route table: `:name` is one non-empty segment; trailing slashes count.
export type PathParams = Record<string, string>;

export function matchPath(pattern: string, pathname: string): PathParams | null {
  const keys: string[] = [];
  const source = pattern
    .split('/')
    .map((part) => {
      if (part.startsWith(':')) {
        keys.push(part.slice(1));
        return '([^/]+)';
      }
      return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  const match = new RegExp(`^${source}$`).exec(pathname);
  if (!match) return null;
  const params: PathParams = {};
  keys.forEach((key, i) => {
    const raw = match[i + 1] ?? '';
    try {
      params[key] = decodeURIComponent(raw);
    } catch {
      params[key] = raw;
    }
  });
  return params;
}

/** What every routed page gets: the route's path parameters (in lib/, not routes.tsx, which imports the pages). */
export interface PageProps {
  params: PathParams;
}
