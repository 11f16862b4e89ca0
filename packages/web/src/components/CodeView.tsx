// Source with line numbers and syntax highlighting (Python when the language is `pytorch`, else C-like).
import { useMemo } from 'react';
import { tokenize } from '../lib/highlight';

export function CodeView({ source, label, language }: { source: string; label: string; language?: string }) {
  const tokens = useMemo(() => tokenize(source, language), [source, language]);
  const lineCount = source.split('\n').length;
  return (
    <div className="flex max-h-[36rem] overflow-auto rounded-md border border-slate-200 bg-slate-50 font-mono text-xs leading-5 dark:border-slate-800 dark:bg-slate-950">
      <pre
        aria-hidden="true"
        className="sticky left-0 bg-slate-100 px-3 py-3 text-right text-slate-400 select-none dark:bg-slate-900 dark:text-slate-500"
      >
        {Array.from({ length: lineCount }, (_, i) => i + 1).join('\n')}
      </pre>
      <pre
        aria-label={label}
        tabIndex={0}
        data-language={language ?? 'c'}
        className="flex-1 px-3 py-3 text-slate-900 dark:text-slate-100"
      >
        <code>
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
        </code>
      </pre>
    </div>
  );
}
