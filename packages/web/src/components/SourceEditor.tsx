// A plain source editor: monospace, Tab indents, or a file to load into it.
import { type KeyboardEvent, useId } from 'react';
import { controlClass } from './fields';

export function SourceEditor({ value, onChange }: { value: string; onChange: (source: string) => void }) {
  const id = useId();
  const fileId = useId();

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    // Tab inserts spaces; Escape then Tab leaves the editor, so keyboard users are never trapped.
    if (event.key !== 'Tab' || event.shiftKey || event.currentTarget.dataset.escaped === '1') {
      event.currentTarget.dataset.escaped = event.key === 'Escape' ? '1' : '';
      return;
    }
    event.preventDefault();
    const el = event.currentTarget;
    const { selectionStart: start, selectionEnd: end } = el;
    const next = `${value.slice(0, start)}    ${value.slice(end)}`;
    onChange(next);
    requestAnimationFrame(() => el.setSelectionRange(start + 4, start + 4));
  }

  async function onFile(file: File | undefined) {
    if (file) onChange(await file.text());
  }

  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-end justify-between gap-2">
        <label htmlFor={id} className="text-sm font-medium text-slate-700 dark:text-slate-200">
          Source{' '}
          <span className="font-normal text-slate-500 dark:text-slate-400">(Tab indents; Esc then Tab leaves)</span>
        </label>
        <div className="text-sm">
          <label htmlFor={fileId} className="mr-2 text-slate-700 dark:text-slate-200">
            Or upload a file
          </label>
          <input
            id={fileId}
            type="file"
            accept=".c,.cc,.cpp,.cu,.h,.hpp,.txt"
            onChange={(e) => void onFile(e.target.files?.[0])}
            className="text-sm text-slate-600 file:mr-2 file:rounded file:border-0 file:bg-slate-100 file:px-2 file:py-1 dark:text-slate-300 dark:file:bg-slate-800 dark:file:text-slate-200"
          />
        </div>
      </div>
      <textarea
        id={id}
        value={value}
        spellCheck={false}
        rows={20}
        required
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={onKeyDown}
        className={`${controlClass} font-mono text-xs leading-5`}
      />
    </div>
  );
}
