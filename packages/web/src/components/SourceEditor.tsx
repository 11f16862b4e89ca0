// A light code editor: a textarea over a highlighted copy of its text, with line numbers; Tab indents, Enter keeps
// the indentation (one level more after `{`, or after `:` in Python); Escape then Tab leaves it, so keyboard users are never trapped.
import { type KeyboardEvent, useId, useMemo, useRef } from 'react';
import { tokenize } from '../lib/highlight';

const INDENT = '    ';

export function SourceEditor({
  value,
  onChange,
  language,
}: {
  value: string;
  onChange: (source: string) => void;
  /** Highlights (and indents) as Python when `pytorch`, else as C. */
  language?: string;
}) {
  const id = useId();
  const fileId = useId();
  const codeRef = useRef<HTMLPreElement>(null);
  const gutterRef = useRef<HTMLPreElement>(null);
  const tokens = useMemo(() => tokenize(value, language), [value, language]);
  const lineCount = value.split('\n').length;

  function replace(el: HTMLTextAreaElement, start: number, end: number, text: string) {
    onChange(`${value.slice(0, start)}${text}${value.slice(end)}`);
    const caret = start + text.length;
    requestAnimationFrame(() => el.setSelectionRange(caret, caret));
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    const el = event.currentTarget;
    const { selectionStart: start, selectionEnd: end } = el;
    if (event.key === 'Enter' && !event.shiftKey && !event.ctrlKey && !event.metaKey) {
      const lineStart = value.lastIndexOf('\n', start - 1) + 1;
      const indent = /^[ \t]*/.exec(value.slice(lineStart, start))?.[0] ?? '';
      const opens = (language === 'pytorch' ? /:\s*$/ : /\{\s*$/).test(value.slice(lineStart, start));
      event.preventDefault();
      replace(el, start, end, `\n${indent}${opens ? INDENT : ''}`);
      return;
    }
    if (event.key !== 'Tab' || event.shiftKey || el.dataset.escaped === '1') {
      el.dataset.escaped = event.key === 'Escape' ? '1' : '';
      return;
    }
    event.preventDefault();
    replace(el, start, end, INDENT);
  }

  function onScroll(event: React.UIEvent<HTMLTextAreaElement>) {
    const { scrollTop, scrollLeft } = event.currentTarget;
    if (codeRef.current) {
      codeRef.current.scrollTop = scrollTop;
      codeRef.current.scrollLeft = scrollLeft;
    }
    if (gutterRef.current) gutterRef.current.scrollTop = scrollTop;
  }

  async function onFile(file: File | undefined) {
    if (file) onChange(await file.text());
  }

  const text = 'p-3 font-mono text-xs leading-5 whitespace-pre';
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-end justify-between gap-2">
        <label htmlFor={id} className="text-sm font-medium text-slate-700 dark:text-slate-200">
          Source{' '}
          <span className="font-normal text-slate-500 dark:text-slate-400">(Tab indents; Esc then Tab leaves)</span>
        </label>
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
        className="flex h-[28rem] overflow-hidden rounded-md border border-slate-300 bg-slate-50 focus-within:ring-2 focus-within:ring-indigo-500 dark:border-slate-700 dark:bg-slate-950"
      >
        <pre
          ref={gutterRef}
          aria-hidden="true"
          className={`${text} shrink-0 overflow-hidden bg-slate-100 text-right text-slate-400 select-none dark:bg-slate-900 dark:text-slate-500`}
        >
          {Array.from({ length: lineCount }, (_, i) => i + 1).join('\n')}
          {'\n\n'}
        </pre>
        <div className="relative min-w-0 flex-1">
          <pre
            ref={codeRef}
            aria-hidden="true"
            data-language={language ?? 'c'}
            className={`${text} absolute inset-0 overflow-hidden text-slate-900 dark:text-slate-100`}
          >
            {tokens.map((token, i) =>
              token.kind === 'plain' ? (
                token.text
              ) : (
                // biome-ignore lint/suspicious/noArrayIndexKey: tokens of one source never reorder.
                <span key={i} className={`tok-${token.kind}`}>
                  {token.text}
                </span>
              ),
            )}
            {'\n\n'}
          </pre>
          <textarea
            id={id}
            value={value}
            spellCheck={false}
            autoCapitalize="off"
            autoComplete="off"
            wrap="off"
            required
            onChange={(e) => onChange(e.target.value)}
            onKeyDown={onKeyDown}
            onScroll={onScroll}
            className={`${text} absolute inset-0 h-full w-full resize-none overflow-auto bg-transparent text-transparent caret-slate-900 outline-none selection:bg-indigo-200 dark:caret-white dark:selection:bg-indigo-800`}
          />
        </div>
      </div>
    </div>
  );
}
