// A way back from a dead end: the page the visitor came from inside the app (when there is one), and a sensible
// parent of the address they are on.

export interface WayOut {
  href: string;
  label: string;
}

/** The in-app addresses visited before this one, newest last (wouter announces each pushState on window). */
const visited: string[] = [];
let current = typeof window === 'undefined' ? '' : window.location.pathname + window.location.search;
if (typeof window !== 'undefined') {
  window.addEventListener('pushState', () => {
    const next = window.location.pathname + window.location.search;
    if (next === current) return;
    visited.push(current);
    current = next;
  });
  window.addEventListener('popstate', () => {
    const next = window.location.pathname + window.location.search;
    // Back one step when the address is the one before; any other jump leaves us not knowing: forget the trail.
    if (visited[visited.length - 1] === next) visited.pop();
    else visited.length = 0;
    current = next;
  });
}

/** The in-app address the visitor came from, if they came from one. */
export function cameFrom(): string | undefined {
  return visited[visited.length - 1];
}

/** The page above this address: the session above its attempts, the leaderboards above one board, and so on. */
export function parentOf(pathname: string): WayOut {
  const parts = pathname.split('/').filter(Boolean);
  const [first, second, third] = parts;
  if (first === 'kernels' && second && second !== 'submit' && second !== 'generate-kernel' && third)
    return { href: `/kernels/${second}`, label: 'Back to the session' };
  if (first === 'kernels' && second && second !== 'submit' && second !== 'generate-kernel')
    return { href: '/sessions', label: 'Go to my sessions' };
  if (first === 'leaderboard' && second) return { href: '/leaderboard/', label: 'Go to all leaderboards' };
  if (first === 'admin' && second) return { href: '/admin/', label: 'Go to All sessions' };
  return { href: '/sessions', label: 'Go to my sessions' };
}
