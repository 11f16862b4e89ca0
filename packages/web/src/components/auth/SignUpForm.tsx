// Registration, step one: a verification mail whose link finishes the sign-up at /verify-email.
import { authErrorMessage } from '../../lib/authErrors';
import { type FormEvent, useState } from 'react';
import { useSettings } from '../../hooks/useSettings';
import { api } from '../../lib/client';
import { Button } from '../Button';
import { TextField } from '../fields';
import { FormMessage } from '../FormMessage';

export function SignUpForm() {
  // Spec section 7: {email, application}, the application named by the settings' auth server.
  const { data: settings } = useSettings();
  const applicationName = settings?.auth_server.application_name;
  const application = applicationName ? { application: applicationName } : {};
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const email = String(form.get('email') ?? '').trim();
    const fullName = String(form.get('full_name') ?? '').trim();
    const password = String(form.get('password') ?? '');
    setBusy(true);
    setError(null);
    setSent(null);
    try {
      await api().auth.requestEmailVerification({
        email,
        ...application,
        ...(fullName ? { full_name: fullName } : {}),
        ...(password ? { password } : {}),
      });
      setSent(`We sent a verification link to ${email}. Open it to finish signing up.`);
    } catch (err) {
      setError(authErrorMessage(err, 'Failed to send verification email'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={onSubmit} className="space-y-4" aria-label="Sign up">
      <TextField label="Email" name="email" type="email" autoComplete="email" required />
      <TextField label="Full name" name="full_name" autoComplete="name" hint="optional" />
      <TextField
        label="Password"
        name="password"
        type="password"
        autoComplete="new-password"
        minLength={8}
        hint="optional, 8 characters or more"
      />
      <FormMessage error={error} success={sent} />
      <Button type="submit" variant="primary" className="w-full" disabled={busy}>
        {busy ? 'Sending…' : 'Send verification email'}
      </Button>
    </form>
  );
}
