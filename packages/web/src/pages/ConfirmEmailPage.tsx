// `/account/confirm-email?token=` (signed in): the link mailed to a new address; opening it makes the change, then
// /account shows the new address. A visitor who is not signed in signs in first and comes back here.
import { errorMessage } from '@kernelforge/sdk';
import { useEffect, useRef, useState } from 'react';
import { useSearch } from 'wouter';
import { AppLink } from '../components/AppLink';
import { Card } from '../components/Card';
import { PageHeader } from '../components/PageHeader';
import { Spinner } from '../components/Spinner';
import { useAccount } from '../hooks/useAccount';
import { parseTokenSearch } from '../lib/authPaths';

export default function ConfirmEmailPage() {
  const parsed = parseTokenSearch(useSearch());
  const token = parsed.ok ? parsed.token : null;
  const account = useAccount();
  const [outcome, setOutcome] = useState<{ error?: string; email?: string } | null>(null);
  const started = useRef<string | null>(null);
  useEffect(() => {
    // The link works once: never send the same token twice (StrictMode, re-renders).
    if (!token || started.current === token) return;
    started.current = token;
    account
      .confirmEmail(token)
      .then((user) => setOutcome({ email: user.email }))
      .catch((err: unknown) => setOutcome({ error: errorMessage(err, 'Failed to change your email address') }));
  }, [token, account]);
  let body: React.ReactNode;
  if (!parsed.ok)
    body = (
      <p role="alert" className="text-rose-700 dark:text-rose-300">
        {parsed.error}
      </p>
    );
  else if (!outcome) body = <Spinner label="Changing your email address…" />;
  else if (outcome.error)
    body = (
      <p role="alert" className="text-rose-700 dark:text-rose-300">
        {outcome.error}
      </p>
    );
  else
    body = (
      <p role="status" className="text-emerald-800 dark:text-emerald-200">
        Your email address is now <strong className="break-all">{outcome.email}</strong>: sign in with it from now on.
      </p>
    );
  return (
    <>
      <PageHeader title="Confirm your new email address" />
      <Card className="max-w-xl">
        {body}
        <p className="mt-4 text-sm">
          <AppLink href="/account">Back to Account</AppLink>
        </p>
      </Card>
    </>
  );
}
