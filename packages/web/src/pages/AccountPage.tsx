// `/account` ('Account'): the name others see on leaderboards and submissions (the email stays private), result
// mail, the password, the email address and deleting the account (components/AccountCards.tsx).
import { DISPLAY_NAME_MAX } from '@kernelforge/sdk';
import { type FormEvent, useState } from 'react';
import { Button } from '../components/Button';
import { Card } from '../components/Card';
import { TextField } from '../components/fields';
import { PageHeader } from '../components/PageHeader';
import { ResultMailCard } from '../components/ResultMailCard';
import { DeleteAccountCard, EmailCard, PasswordCard } from '../components/AccountCards';
import { useUser } from '../components/SignedInLayout';
import { useAction } from '../hooks/useAction';
import { useUpdateMe } from '../hooks/useCurrentUser';

export default function AccountPage() {
  const user = useUser();
  const updateMe = useUpdateMe();
  const { busy, run } = useAction();
  const [name, setName] = useState(user.display_name ?? '');
  const fallback = user.full_name?.trim() || user.handle || 'your handle';
  async function save(event: FormEvent) {
    event.preventDefault();
    await run(
      () => updateMe({ display_name: name.trim() || null }),
      'Failed to save your display name',
      'Display name saved',
    );
  }
  return (
    <>
      <PageHeader title="Account" subtitle={`Signed in as ${user.email}`} />
      <div className="space-y-4">
        <Card title="Display name" className="max-w-xl">
          <form onSubmit={save} className="space-y-4">
            <TextField
              label="Display name"
              hint={`shown on leaderboards and submissions; empty: ${fallback}`}
              value={name}
              maxLength={DISPLAY_NAME_MAX}
              onChange={(e) => setName(e.target.value)}
              placeholder={fallback}
            />
            <p className="text-sm text-slate-600 dark:text-slate-400">
              Other users see this name, never your email address. Administrators can see your email.
            </p>
            <Button type="submit" variant="primary" disabled={busy}>
              Save
            </Button>
          </form>
        </Card>
        <ResultMailCard />
        <PasswordCard />
        <EmailCard />
        <DeleteAccountCard />
      </div>
    </>
  );
}
