// The shared frame of /verify-email and /magic-link-login: check the token param, run once, show the outcome.
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useSearch } from 'wouter';
import { usePageTitle } from '../../hooks/usePageTitle';
import { parseTokenSearch } from '../../lib/authPaths';
import { AppLink } from '../AppLink';
import { Spinner } from '../Spinner';

export function TokenLanding({
  title,
  busyLabel,
  run,
  whenMissing,
}: {
  title: string;
  busyLabel: string;
  /** What to do next when the link has no token (shown under 'Token is required'). */
  whenMissing?: ReactNode;
  /** Resolves when done (it navigates on); rejects with the message to show. */
  run: (token: string) => Promise<void>;
}) {
  usePageTitle(title);
  const search = useSearch();
  const parsed = parseTokenSearch(search);
  const [error, setError] = useState<string | null>(null);
  const started = useRef<string | null>(null);
  const token = parsed.ok ? parsed.token : null;

  useEffect(() => {
    // Tokens are single use: never send the same one twice (StrictMode, re-renders).
    if (!token || started.current === token) return;
    started.current = token;
    run(token).catch((err: unknown) => setError(err instanceof Error ? err.message : String(err)));
  }, [token, run]);

  let body: ReactNode;
  if (!parsed.ok)
    body = (
      <>
        <p role="alert" className="text-rose-700 dark:text-rose-300">
          {parsed.error}
        </p>
        {whenMissing}
      </>
    );
  else if (error)
    body = (
      <p role="alert" className="text-rose-700 dark:text-rose-300">
        {error}
      </p>
    );
  else body = <Spinner label={busyLabel} />;

  return (
    <div className="mx-auto mt-16 max-w-md rounded-xl border border-slate-200 bg-white p-6 shadow-lg dark:border-slate-800 dark:bg-slate-900">
      <h1 className="mb-4 text-xl font-semibold text-slate-900 dark:text-white">{title}</h1>
      {body}
      {!parsed.ok || error ? (
        <p className="mt-4 text-sm">
          <AppLink href="/">Back to login</AppLink>
        </p>
      ) : null}
    </div>
  );
}
