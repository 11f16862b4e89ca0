// A unified diff: old and new line numbers, 3 lines of context, unchanged runs folded (click to unfold), highlighted.
import { Fragment, useMemo, useState } from 'react';
import { diffLines, type NumberedLine, unifiedDiff } from '../lib/diff';
import { tokenize } from '../lib/highlight';

function Code({ text, language }: { text: string; language: string | undefined }) {
  const tokens = useMemo(() => tokenize(text, language), [text, language]);
  return (
    <>
      {tokens.map((t, i) =>
        t.kind === 'plain' ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: tokens of one line never reorder.
          <Fragment key={i}>{t.text}</Fragment>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: tokens of one line never reorder.
          <span key={i} className={`tok-${t.kind}`}>
            {t.text}
          </span>
        ),
      )}
      {text ? null : ' '}
    </>
  );
}

const ROW = {
  added: 'bg-emerald-50 dark:bg-emerald-950/60',
  removed: 'bg-rose-50 dark:bg-rose-950/60',
  same: '',
} as const;

function Line({ line, language }: { line: NumberedLine; language: string | undefined }) {
  return (
    <tr className={ROW[line.kind]} data-kind={line.kind}>
      <td className="w-10 pr-2 text-right text-slate-400 select-none dark:text-slate-500">{line.oldNo ?? ''}</td>
      <td className="w-10 pr-2 text-right text-slate-400 select-none dark:text-slate-500">{line.newNo ?? ''}</td>
      <td
        aria-hidden="true"
        className={`w-5 text-center select-none ${line.kind === 'added' ? 'text-emerald-700 dark:text-emerald-400' : 'text-rose-700 dark:text-rose-400'}`}
      >
        {line.kind === 'added' ? '+' : line.kind === 'removed' ? '−' : ''}
      </td>
      <td className="pr-4 whitespace-pre text-slate-800 dark:text-slate-200">
        {line.kind !== 'same' ? (
          <span className="sr-only">{line.kind === 'added' ? 'added: ' : 'removed: '}</span>
        ) : null}
        <Code text={line.text} language={language} />
      </td>
    </tr>
  );
}

export function DiffView({
  before,
  after,
  label,
  language,
}: {
  before: string;
  after: string;
  label: string;
  language?: string;
}) {
  const lines = useMemo(() => diffLines(before, after), [before, after]);
  const segments = useMemo(() => unifiedDiff(lines, 3), [lines]);
  const [open, setOpen] = useState<ReadonlySet<number>>(new Set());
  const added = lines.filter((l) => l.kind === 'added').length;
  const removed = lines.filter((l) => l.kind === 'removed').length;
  return (
    <div>
      <p className="mb-2 text-xs text-slate-500 dark:text-slate-400">
        <span className="text-emerald-700 dark:text-emerald-400">+{added}</span>{' '}
        <span className="text-rose-700 dark:text-rose-400">−{removed}</span> lines
        {added + removed === 0 ? ' · identical' : ''}
      </p>
      <div
        role="region"
        aria-label={label}
        tabIndex={0}
        className="max-h-[36rem] overflow-auto rounded-md border border-slate-200 bg-white py-1 dark:border-slate-800 dark:bg-slate-950"
      >
        <table className="w-full border-collapse font-mono text-xs leading-5" data-testid="diff">
          <tbody>
            {segments.map((segment, i) =>
              segment.kind === 'lines' || open.has(i) ? (
                // biome-ignore lint/suspicious/noArrayIndexKey: segments of one diff never reorder.
                <Fragment key={i}>
                  {segment.lines.map((line) => (
                    <Line key={`${line.oldNo ?? ''}-${line.newNo ?? ''}`} line={line} language={language} />
                  ))}
                </Fragment>
              ) : (
                // biome-ignore lint/suspicious/noArrayIndexKey: segments of one diff never reorder.
                <tr key={i} className="bg-slate-50 dark:bg-slate-900">
                  <td colSpan={4} className="py-0.5">
                    <button
                      type="button"
                      data-testid="diff-fold"
                      onClick={() => setOpen((s) => new Set(s).add(i))}
                      className="w-full px-3 text-left text-indigo-700 hover:underline dark:text-indigo-300"
                    >
                      ⋯ Show {segment.lines.length} unchanged line{segment.lines.length === 1 ? '' : 's'} (
                      {segment.lines[0]?.newNo}–{segment.lines[segment.lines.length - 1]?.newNo})
                    </button>
                  </td>
                </tr>
              ),
            )}
          </tbody>
        </table>
      </div>
    </div>
  );
}
