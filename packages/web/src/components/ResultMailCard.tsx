// `/account`'s "Result mail" card: whether a ranked result's finish, or its flag for review, is mailed to its owner
// (PATCH /api/v1/users/me mail_results; default on). Test runs are never mailed; the in-app notices stay either way.
import { useState } from 'react';
import { useUser } from './SignedInLayout';
import { Card } from './Card';
import { useAction } from '../hooks/useAction';
import { useUpdateMe } from '../hooks/useCurrentUser';

export function ResultMailCard() {
  const user = useUser();
  const updateMe = useUpdateMe();
  const { busy, run } = useAction();
  const [on, setOn] = useState(user.mail_results !== false);
  async function toggle(next: boolean) {
    setOn(next);
    const saved = await run(
      () => updateMe({ mail_results: next }),
      'Failed to save your mail setting',
      next ? 'You will be mailed when a result finishes' : 'No more result mail',
    );
    if (!saved) setOn(!next);
  }
  return (
    <Card title="Result mail" className="max-w-xl">
      <label className="flex items-start gap-2 text-sm text-slate-800 dark:text-slate-200">
        <input
          type="checkbox"
          className="mt-1"
          checked={on}
          disabled={busy}
          onChange={(e) => void toggle(e.target.checked)}
          data-testid="mail-results"
        />
        <span>
          Email me when a result finishes
          <span className="block text-slate-600 dark:text-slate-400">
            One mail when a ranked submission has its verdict, and one if it is flagged for review. Test runs are never
            mailed; your notices page lists everything either way.
          </span>
        </span>
      </label>
    </Card>
  );
}
