// A name with a Rename button that turns into a small labelled form.
import { type FormEvent, useId, useState } from 'react';
import { Button } from './Button';
import { controlClass } from './fields';

export function InlineRename({
  value,
  label,
  onRename,
}: {
  value: string;
  label: string;
  onRename: (next: string) => Promise<unknown>;
}) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(value);
  const [busy, setBusy] = useState(false);
  const inputId = useId();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const next = draft.trim();
    if (!next || next === value) return setEditing(false);
    setBusy(true);
    try {
      await onRename(next);
      setEditing(false);
    } finally {
      setBusy(false);
    }
  }

  if (!editing) {
    return (
      <Button
        size="sm"
        onClick={() => {
          setDraft(value);
          setEditing(true);
        }}
      >
        Rename
      </Button>
    );
  }
  return (
    <form onSubmit={submit} className="flex items-center gap-2">
      <label className="sr-only" htmlFor={inputId}>
        {label}
      </label>
      <input
        id={inputId}
        autoFocus
        value={draft}
        maxLength={200}
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={(e) => e.key === 'Escape' && setEditing(false)}
        className={`${controlClass} w-56 py-1`}
      />
      <Button size="sm" type="submit" variant="primary" disabled={busy}>
        Save
      </Button>
      <Button size="sm" variant="ghost" onClick={() => setEditing(false)}>
        Cancel
      </Button>
    </form>
  );
}
