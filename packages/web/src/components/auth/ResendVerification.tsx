// On /verify-email without a token: what happened, and a form that sends the verification mail again.
import { type FormEvent, useState } from 'react';
import { authErrorMessage } from '../../lib/authErrors';
import { api } from '../../lib/client';
import { Button } from '../Button';
import { TextField } from '../fields';

export function ResendVerification() {
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  async function send(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await api().auth.requestEmailVerification({ email: email.trim() });
      setSent(email.trim());
    } catch (err) {
      setError(authErrorMessage(err, 'Failed to send verification email'));
    } finally {
      setBusy(false);
    }
  }
  return (
    <div className="mt-4 space-y-3 text-sm text-slate-700 dark:text-slate-300">
      <p>
        This page opens from the link in the verification email we sent you. Open that link, or copy the whole of it
        into the address bar: the part after <code className="font-mono">?token=</code> is what was missing here.
      </p>
      <p>Lost the mail, or the link expired (links last 15 minutes)? We can send it again.</p>
      {sent ? (
        <p
          role="status"
          className="rounded-md bg-emerald-50 p-3 text-emerald-900 dark:bg-emerald-950/50 dark:text-emerald-100"
        >
          We sent a new verification link to {sent}.
        </p>
      ) : (
        <form onSubmit={send} className="space-y-3" aria-label="Send the verification email again">
          <TextField
            label="Email"
            type="email"
            required
            autoComplete="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
          {error ? (
            <p role="alert" className="text-rose-700 dark:text-rose-300">
              {error}
            </p>
          ) : null}
          <Button type="submit" variant="primary" disabled={busy || !email.trim()}>
            Send the email again
          </Button>
        </form>
      )}
    </div>
  );
}
