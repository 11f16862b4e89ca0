// `/account`'s cards for the account itself (issue 35 item 11): the password (set a first one, or change it), the
// email address (changed once a link mailed to the new one is opened) and deleting the account (asked twice: open
// the form, then type the email or "delete"). What deleting removes: docs/api.md, "Deleting an account".
import { errorMessage, PASSWORD_MAX, PASSWORD_MIN } from '@kernelforge/sdk';
import { type FormEvent, useState } from 'react';
import { toast } from 'sonner';
import { useAccount } from '../hooks/useAccount';
import { useAuthActions } from '../hooks/useAuthActions';
import { passwordResetUntil } from '../lib/authPaths';
import { getToken } from '../lib/client';
import { Button } from './Button';
import { Card } from './Card';
import { TextField } from './fields';
import { FormMessage } from './FormMessage';
import { useUser } from './SignedInLayout';

const note = 'text-sm text-slate-600 dark:text-slate-400';

function CurrentPassword({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  return (
    <TextField
      label="Current password"
      type="password"
      autoComplete="current-password"
      required
      value={value}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}

export function PasswordCard() {
  const user = useUser();
  const account = useAccount();
  const has = user.has_password === true;
  // Signed in by an emailed link a moment ago: a forgotten password is replaced without it (the server's rule).
  const resetUntil = has ? passwordResetUntil(getToken()) : null;
  const askCurrent = has && resetUntil === null;
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [again, setAgain] = useState('');
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ error?: string; success?: string }>({});
  async function save(event: FormEvent) {
    event.preventDefault();
    if (next !== again) {
      setResult({ error: 'The two new passwords differ: type the same password twice' });
      return;
    }
    setBusy(true);
    try {
      const message = await account.setPassword({
        new_password: next,
        ...(askCurrent ? { current_password: current } : {}),
      });
      setResult({ success: message });
      setCurrent('');
      setNext('');
      setAgain('');
    } catch (err) {
      setResult({ error: errorMessage(err, 'Failed to save your password') });
    } finally {
      setBusy(false);
    }
  }
  return (
    <Card title="Password" className="max-w-xl">
      <form onSubmit={save} className="space-y-4">
        <p className={note}>
          {has
            ? 'You sign in with your email and this password, or by email link.'
            : 'You have no password yet: you sign in by email link or Google. Set one to sign in with your email and a password too.'}
        </p>
        {resetUntil ? (
          <p className={note} data-testid="password-reset-window">
            You signed in by an email link: until{' '}
            {resetUntil.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })} you can set a new password
            without the current one (a forgotten password).
          </p>
        ) : null}
        {askCurrent ? <CurrentPassword value={current} onChange={setCurrent} /> : null}
        <TextField
          label={has ? 'New password' : 'Password'}
          hint={`${PASSWORD_MIN} to ${PASSWORD_MAX} characters`}
          type="password"
          autoComplete="new-password"
          required
          minLength={PASSWORD_MIN}
          maxLength={PASSWORD_MAX}
          value={next}
          onChange={(e) => setNext(e.target.value)}
        />
        <TextField
          label={has ? 'Repeat the new password' : 'Repeat the password'}
          type="password"
          autoComplete="new-password"
          required
          value={again}
          onChange={(e) => setAgain(e.target.value)}
        />
        <FormMessage error={result.error} success={result.success} />
        <Button type="submit" variant="primary" disabled={busy}>
          {has ? 'Change password' : 'Set password'}
        </Button>
      </form>
    </Card>
  );
}

export function EmailCard() {
  const user = useUser();
  const account = useAccount();
  const has = user.has_password === true;
  const [email, setEmail] = useState('');
  const [current, setCurrent] = useState('');
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ error?: string; success?: string }>({});
  async function send(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    try {
      const message = await account.changeEmail({
        new_email: email,
        ...(has ? { current_password: current } : {}),
      });
      setResult({ success: message });
      setCurrent('');
    } catch (err) {
      setResult({ error: errorMessage(err, 'Failed to send the confirmation link') });
    } finally {
      setBusy(false);
    }
  }
  return (
    <Card title="Email address" className="max-w-xl">
      <form onSubmit={send} className="space-y-4">
        <p className={note}>
          Your address is <strong className="break-all">{user.email}</strong>. A new one takes effect once you open the
          link we mail to it; until then you keep signing in with this one.
        </p>
        <TextField
          label="New email address"
          type="email"
          autoComplete="email"
          required
          maxLength={320}
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        {has ? <CurrentPassword value={current} onChange={setCurrent} /> : null}
        <FormMessage error={result.error} success={result.success} />
        <Button type="submit" variant="primary" disabled={busy}>
          Send confirmation link
        </Button>
      </form>
    </Card>
  );
}

export function DeleteAccountCard() {
  const user = useUser();
  const account = useAccount();
  const { logout } = useAuthActions();
  const has = user.has_password === true;
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const [current, setCurrent] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const confirmed = ['delete', user.email.toLowerCase()].includes(typed.trim().toLowerCase());
  async function remove(event: FormEvent) {
    event.preventDefault();
    if (!confirmed) return;
    setBusy(true);
    try {
      await account.deleteMe({ confirm: typed.trim(), ...(has ? { current_password: current } : {}) });
    } catch (err) {
      setError(errorMessage(err, 'Failed to delete your account'));
      setBusy(false);
      return;
    }
    toast.success('Your account is deleted');
    await logout();
  }
  return (
    <Card title="Delete account" className="max-w-xl">
      <div className="space-y-4">
        <p className={note}>
          Deleting your account removes at once your sessions, sweeps, submissions and test runs (your leaderboard
          entries leave the boards), your API tokens and your sign-in. It cannot be undone.
        </p>
        {open ? (
          <form onSubmit={remove} className="space-y-4" aria-label="Confirm deleting your account">
            <TextField
              label={`Type your email address (${user.email}) or the word delete`}
              autoComplete="off"
              required
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
            />
            {has ? <CurrentPassword value={current} onChange={setCurrent} /> : null}
            <FormMessage error={error} />
            <div className="flex flex-wrap gap-2">
              <Button type="submit" variant="danger" disabled={busy || !confirmed}>
                Delete my account for good
              </Button>
              <Button
                type="button"
                onClick={() => {
                  setOpen(false);
                  setTyped('');
                  setError(null);
                }}
              >
                Keep my account
              </Button>
            </div>
          </form>
        ) : (
          <Button variant="danger" onClick={() => setOpen(true)}>
            Delete account…
          </Button>
        )}
      </div>
    </Card>
  );
}
