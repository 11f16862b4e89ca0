// Scroll restoration: back/forward returns to where the page was; a new navigation starts at the top.
import { useEffect, useRef } from 'react';
import { useLocation } from 'wouter';

const positions = new Map<string, number>();

export function ScrollRestoration() {
  const [location] = useLocation();
  const previous = useRef(location);
  const popped = useRef(false);

  useEffect(() => {
    if ('scrollRestoration' in history) history.scrollRestoration = 'manual';
    const onPop = () => {
      popped.current = true;
    };
    const onScroll = () => positions.set(previous.current, window.scrollY);
    window.addEventListener('popstate', onPop);
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      window.removeEventListener('popstate', onPop);
      window.removeEventListener('scroll', onScroll);
    };
  }, []);

  useEffect(() => {
    if (previous.current === location) return;
    previous.current = location;
    const target = popped.current ? (positions.get(location) ?? 0) : 0;
    popped.current = false;
    // After the new page has rendered (lazy pages may need a frame or two).
    requestAnimationFrame(() => requestAnimationFrame(() => window.scrollTo(0, target)));
  }, [location]);

  return null;
}
