// Links out of a dead end (an error, a missing page): back to where the visitor came from, and up to a parent page.
import { useLocation } from 'wouter';
import { cameFrom, parentOf, type WayOut } from '../lib/wayBack';
import { AppLink } from './AppLink';
import { Button, buttonClass } from './Button';

export function WayBack({ up, className = 'mt-3' }: { up?: WayOut | undefined; className?: string }) {
  const [location] = useLocation();
  const parent = up ?? parentOf(location);
  const previous = cameFrom();
  return (
    <nav aria-label="Way back" className={`flex flex-wrap gap-2 ${className}`} data-testid="way-back">
      {previous && previous !== parent.href ? (
        <Button size="sm" onClick={() => window.history.back()} title={previous}>
          ← Back
        </Button>
      ) : null}
      <AppLink href={parent.href} className={buttonClass(previous ? 'secondary' : 'primary', 'sm')}>
        {parent.label}
      </AppLink>
    </nav>
  );
}
