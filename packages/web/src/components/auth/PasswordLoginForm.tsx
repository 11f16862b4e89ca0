// Login with email and password (form data; empty values are omitted by the sdk).
import { authErrorMessage } from '../../lib/authErrors';
import { type FormEvent, useState } from 'react';
import { useAuthActions } from '../../hooks/useAuthActions';
import { api } from '../../lib/client';
import { Button } from '../Button';
import { TextField } from '../fields';
import { FormMessage } from '../FormMessage';

export function PasswordLoginForm({
  redirect,
  onForgot,
}: {
  redirect: string | undefined;
  /** Shows the way back in for a forgotten password (the email-link form, which says what follows). */
  onForgot?: () => void;
}) {
  const { completeLogin } = useAuthActions();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(null);
    try {
      await api().auth.loginWithPassword({
        username: String(form.get('username') ?? '').trim(),
        password: String(form.get('password') ?? ''),
      });
      await completeLogin({ redirect });
    } catch (err) {
      setError(authErrorMessage(err, 'Login failed'));
      setBusy(false);
    }
  }

  return (
    <form onSubmit={onSubmit} className="space-y-4" aria-label="Log in with password">
      <TextField label="Email" name="username" type="email" autoComplete="username" required />
      <TextField label="Password" name="password" type="password" autoComplete="current-password" required />
      <FormMessage error={error} />
      <Button type="submit" variant="primary" className="w-full" disabled={busy}>
        {busy ? 'Logging in…' : 'Log in'}
      </Button>
      {onForgot ? (
        <button
          type="button"
          onClick={onForgot}
          className="text-sm text-indigo-700 underline hover:text-indigo-900 dark:text-indigo-300 dark:hover:text-indigo-100"
        >
          Forgot your password?
        </button>
      ) : null}
    </form>
  );
}
