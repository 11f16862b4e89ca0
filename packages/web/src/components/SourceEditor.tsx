// The submit page's code editor (CodeMirror, loaded on first use): highlighting, line numbers, Tab indents, Enter
// keeps the indentation, undo; Escape then Tab leaves it, so keyboard users are never trapped. Until CodeMirror has
// loaded, a plain text area holds the source.
import { useEffect, useId, useRef } from 'react';
import type { EditorHandle } from '../lib/codemirror';
import { useCodeMirror } from './code/useCodeMirror';

export function SourceEditor({
  value,
  onChange,
  language,
}: {
  value: string;
  onChange: (source: string) => void;
  /** Highlights (and indents) as Python when `pytorch`, else as C++. */
  language?: string;
}) {
  const labelId = useId();
  const fileId = useId();
  const cm = useCodeMirror();
  const host = useRef<HTMLDivElement>(null);
  const editor = useRef<EditorHandle | undefined>(undefined);
  // The latest props, for the editor made once below.
  const latest = useRef({ value, onChange, language });
  latest.current = { value, onChange, language };

  useEffect(() => {
    if (!cm || !host.current) return;
    const { value: source, language: lang } = latest.current;
    const made = cm.mountEditor(host.current, {
      source,
      language: lang,
      labelledBy: labelId,
      onChange: (text) => latest.current.onChange(text),
    });
    editor.current = made;
    return () => {
      made.destroy();
      editor.current = undefined;
    };
  }, [cm, labelId]);
  useEffect(() => editor.current?.setSource(value), [value]);
  useEffect(() => editor.current?.setLanguage(language), [language]);

  async function onFile(file: File | undefined) {
    if (file) onChange(await file.text());
  }

  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-end justify-between gap-2">
        <span id={labelId} className="text-sm font-medium text-slate-700 dark:text-slate-200">
          Source{' '}
          <span className="font-normal text-slate-500 dark:text-slate-400">(Tab indents; Esc then Tab leaves)</span>
        </span>
        <div className="min-w-0 text-sm">
          <label htmlFor={fileId} className="mr-2 text-slate-700 dark:text-slate-200">
            Or upload a file
          </label>
          <input
            id={fileId}
            type="file"
            accept={language === 'pytorch' ? '.py,.txt' : '.c,.cc,.cpp,.cu,.h,.hpp,.txt'}
            onChange={(e) => void onFile(e.target.files?.[0])}
            className="max-w-full text-sm text-slate-600 file:mr-2 file:rounded file:border-0 file:bg-slate-100 file:px-2 file:py-1 dark:text-slate-300 dark:file:bg-slate-800 dark:file:text-slate-200"
          />
        </div>
      </div>
      <div
        data-testid="code-editor"
        className="kf-code kf-code-editor h-[28rem] overflow-hidden rounded-md border border-slate-300 focus-within:ring-2 focus-within:ring-indigo-500 dark:border-slate-700"
      >
        {cm ? (
          <div ref={host} className="h-full" />
        ) : (
          <textarea
            aria-labelledby={labelId}
            value={value}
            spellCheck={false}
            autoCapitalize="off"
            autoComplete="off"
            wrap="off"
            required
            onChange={(e) => onChange(e.target.value)}
            className="h-full w-full resize-none bg-slate-50 p-3 font-mono text-xs leading-5 text-slate-900 outline-none dark:bg-slate-950 dark:text-slate-100"
          />
        )}
      </div>
    </div>
  );
}
