// The fallback paragraph when nothing matches inside a page (spec section 2), with a way back.
import type { WayOut } from '../lib/wayBack';
import { WayBack } from './WayBack';

export function NotFoundFallback({ up }: { up?: WayOut | undefined }) {
  return (
    <div className="py-6">
      <p className="text-slate-600 dark:text-slate-400">Not Found</p>
      <WayBack up={up} />
    </div>
  );
}
