// The signed-in layout and its guard: without a user, 'Unauthorized, please login again' and off to login.
import { AuthenticationError } from '@kernelforge/sdk';
import { createContext, type ReactNode, useContext, useEffect } from 'react';
import { toast } from 'sonner';
import { useLocation } from 'wouter';
import type { User } from '@kernelforge/sdk';
import { consumeLogout } from '../hooks/useAuthActions';
import { useCurrentUser } from '../hooks/useCurrentUser';
import { loginPath, UNAUTHORIZED_MESSAGE } from '../lib/authPaths';
import { DisplayNamePrompt } from './DisplayNamePrompt';
import { NavBar } from './NavBar';
import { ShortcutHelp } from './ShortcutHelp';
import { QueryError } from './QueryState';
import { Spinner } from './Spinner';

const UserContext = createContext<User | null>(null);

/** The signed-in user; only valid below SignedInLayout. */
export function useUser(): User {
  const user = useContext(UserContext);
  if (!user) throw new Error(UNAUTHORIZED_MESSAGE);
  return user;
}

export function SignedInLayout({ children }: { children: ReactNode }) {
  const { data: user, error } = useCurrentUser();
  const [location, navigate] = useLocation();
  const signedOut = user === null || error instanceof AuthenticationError;

  useEffect(() => {
    if (!signedOut || consumeLogout()) return;
    toast.error(UNAUTHORIZED_MESSAGE, { id: 'unauthorized' });
    navigate(loginPath(location), { replace: true });
  }, [signedOut, location, navigate]);

  if (signedOut) return <p className="sr-only">{UNAUTHORIZED_MESSAGE}</p>;
  if (!user) {
    return (
      <div className="mx-auto max-w-7xl px-6">{error ? <QueryError error={error} wayBack={false} /> : <Spinner />}</div>
    );
  }
  return (
    <UserContext.Provider value={user}>
      <div className="min-h-screen bg-slate-50 dark:bg-slate-950">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
        >
          Skip to content
        </a>
        <NavBar user={user} />
        <main id="main" className="mx-auto max-w-7xl px-4 py-8 sm:px-6">
          <div className="flex flex-col">
            <div className="min-w-0">{children}</div>
            {/* After the page in the document, so the page's own controls come first in the tab order; shown above
                it (order-first), where it is seen without scrolling (issue 35: it sat below the fold on every page). */}
            <DisplayNamePrompt user={user} />
          </div>
        </main>
        <ShortcutHelp />
      </div>
    </UserContext.Provider>
  );
}
