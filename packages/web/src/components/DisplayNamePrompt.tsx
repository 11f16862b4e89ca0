// A signed-in user without a display name is asked, once, for the name others see (PATCH /api/v1/users/me);
// "Not now" keeps their handle of words and is remembered on this browser.
import { DISPLAY_NAME_MAX, type User } from '@kernelforge/sdk';
import { type FormEvent, useId, useState } from 'react';
import { useLocation } from 'wouter';
import { useAction } from '../hooks/useAction';
import { useUpdateMe } from '../hooks/useCurrentUser';
import { Button } from './Button';
import { controlClass } from './fields';

const dismissedKey = (userId: string) => `kf-name-prompt-dismissed:${userId}`;

function wasDismissed(userId: string): boolean {
  try {
    return localStorage.getItem(dismissedKey(userId)) === '1';
  } catch {
    return false;
  }
}

export function DisplayNamePrompt({ user }: { user: User }) {
  const [location] = useLocation();
  const [dismissed, setDismissed] = useState(() => wasDismissed(user.id));
  const [name, setName] = useState('');
  const { busy, run } = useAction();
  const updateMe = useUpdateMe();
  const id = useId();
  // The account page is where the name is set anyway.
  if (user.display_name || dismissed || location === '/account') return null;
  const shownAs = user.full_name?.trim() || user.handle;

  function dismiss() {
    try {
      localStorage.setItem(dismissedKey(user.id), '1');
    } catch {
      // Private mode: dismissed for this page's life only.
    }
    setDismissed(true);
  }

  async function save(event: FormEvent) {
    event.preventDefault();
    await run(() => updateMe({ display_name: name.trim() }), 'Failed to save your display name', 'Display name saved');
  }

  return (
    // No accessible name on the section or the field that says "name": pages' own "Name" fields stay unambiguous.
    <section
      data-testid="display-name-prompt"
      className="order-first mb-6 rounded-lg border border-indigo-200 bg-indigo-50 p-4 text-sm dark:border-indigo-900 dark:bg-indigo-950/40"
    >
      <h2 id={`${id}-title`} className="font-semibold text-indigo-950 dark:text-indigo-100">
        Choose the name others see
      </h2>
      <p className="mt-1 text-indigo-900 dark:text-indigo-200">
        {shownAs ? (
          <>
            Leaderboards and submissions show you as <strong className="wrap-anywhere">{shownAs}</strong>.{' '}
          </>
        ) : null}
        Your email address stays private.
      </p>
      <form onSubmit={save} className="mt-3 flex flex-wrap items-end gap-2">
        <div className="min-w-0 max-w-md flex-1 basis-56">
          <label htmlFor={`${id}-name`} className="sr-only">
            Shown to others as
          </label>
          <input
            id={`${id}-name`}
            className={controlClass}
            value={name}
            maxLength={DISPLAY_NAME_MAX}
            placeholder={shownAs ?? 'e.g. Kernel Wrangler'}
            onChange={(e) => setName(e.target.value)}
          />
        </div>
        <Button type="submit" variant="primary" disabled={busy || !name.trim()}>
          Use this name
        </Button>
        <Button type="button" variant="ghost" onClick={dismiss}>
          Not now
        </Button>
      </form>
    </section>
  );
}
