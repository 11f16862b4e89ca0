// Asks for a sign-in link by email.
import { authErrorMessage } from '../../lib/authErrors';
import { type FormEvent, useState } from 'react';
import { PASSWORD_RESET_BY_LINK_MS } from '@kernelforge/sdk';
import { useSettings } from '../../hooks/useSettings';
import { api } from '../../lib/client';
import { Button } from '../Button';
import { TextField } from '../fields';
import { FormMessage } from '../FormMessage';

export function MagicLinkForm({ forgot = false }: { forgot?: boolean }) {
  // Spec section 7: {email, application}, the application named by the settings' auth server.
  const { data: settings } = useSettings();
  const applicationName = settings?.auth_server.application_name;
  const application = applicationName ? { application: applicationName } : {};
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const email = String(new FormData(event.currentTarget).get('email') ?? '').trim();
    setBusy(true);
    setError(null);
    setSent(null);
    try {
      const response = await api().auth.requestMagicLink({ email, ...application });
      setSent(response.message || `We sent a sign-in link to ${email}.`);
    } catch (err) {
      setError(authErrorMessage(err, 'Failed to send magic link'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={onSubmit} className="space-y-4" aria-label="Email me a sign-in link">
      {forgot ? (
        <p className="text-sm text-slate-600 dark:text-slate-400" data-testid="forgot-password-note">
          Forgot your password? We email you a sign-in link. Once signed in by it, set a new password on your Account
          page within {PASSWORD_RESET_BY_LINK_MS / 60_000} minutes: the old one is not needed.
        </p>
      ) : null}
      <TextField label="Email" name="email" type="email" autoComplete="email" required />
      <FormMessage error={error} success={sent} />
      <Button type="submit" variant="primary" className="w-full" disabled={busy}>
        {busy ? 'Sending…' : 'Email me a sign-in link'}
      </Button>
    </form>
  );
}
