// The 404 page for an unknown route (spec section 2), inside the layout the visitor would see (see routes.tsx).
import { AppLink } from '../components/AppLink';
import { buttonClass } from '../components/Button';
import { usePageTitle } from '../hooks/usePageTitle';
import { cameFrom } from '../lib/wayBack';

export default function NotFoundPage() {
  usePageTitle('404 - Not Found');
  return (
    <div className="mx-auto flex min-h-[60vh] max-w-lg flex-col items-center justify-center px-6 text-center">
      <h1 className="text-3xl font-bold text-slate-900 dark:text-white">404 - Not Found</h1>
      <p className="mt-3 text-slate-600 dark:text-slate-400">The page you are looking for does not exist.</p>
      <div className="mt-6 flex flex-wrap justify-center gap-2">
        {cameFrom() ? (
          <button type="button" className={buttonClass('secondary')} onClick={() => window.history.back()}>
            ← Back
          </button>
        ) : null}
        <AppLink href="/" className={buttonClass('primary')}>
          Go back to Home
        </AppLink>
      </div>
    </div>
  );
}
