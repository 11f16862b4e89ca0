// A diff, unified (old and new line numbers, 3 lines of context, unchanged runs folded: click to unfold) or side by
// side (the old source on the left, the new on the right, changed lines paired), highlighted.
import { Fragment, useMemo, useState } from 'react';
import { type DiffLine, diffLines, type NumberedLine, unifiedDiff } from '../lib/diff';
import { type Token, tokenizeLines } from '../lib/highlight';

function Code({ tokens }: { tokens: readonly Token[] | undefined }) {
  if (!tokens?.length) return <> </>;
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
    </>
  );
}

/** Each source's tokens line by line, so a line is coloured as it reads within the whole file (a block comment's
 * middle lines stay comment). */
interface Highlighted {
  before: Token[][];
  after: Token[][];
}

const ROW = {
  added: 'bg-emerald-50 dark:bg-emerald-950/60',
  removed: 'bg-rose-50 dark:bg-rose-950/60',
  same: '',
} as const;

function Line({ line, highlighted }: { line: NumberedLine; highlighted: Highlighted }) {
  const tokens =
    line.kind === 'removed' ? highlighted.before[(line.oldNo ?? 0) - 1] : highlighted.after[(line.newNo ?? 0) - 1];
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
        <Code tokens={tokens} />
      </td>
    </tr>
  );
}

interface Side {
  no: number;
  text: string;
  kind: DiffLine['kind'];
}
export interface SplitRow {
  left?: Side;
  right?: Side;
}

/** Rows of a side-by-side diff: unchanged lines on both sides, a removed run paired line by line with the added run
 * that replaces it, the longer run's rest against nothing. */
export function sideBySide(lines: readonly DiffLine[]): SplitRow[] {
  const rows: SplitRow[] = [];
  let oldNo = 0;
  let newNo = 0;
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] as DiffLine;
    if (line.kind === 'same') {
      oldNo++;
      newNo++;
      rows.push({
        left: { no: oldNo, text: line.text, kind: 'same' },
        right: { no: newNo, text: line.text, kind: 'same' },
      });
      i++;
      continue;
    }
    const removed: Side[] = [];
    const added: Side[] = [];
    while (i < lines.length && (lines[i] as DiffLine).kind !== 'same') {
      const l = lines[i] as DiffLine;
      if (l.kind === 'removed') removed.push({ no: ++oldNo, text: l.text, kind: 'removed' });
      else added.push({ no: ++newNo, text: l.text, kind: 'added' });
      i++;
    }
    for (let k = 0; k < Math.max(removed.length, added.length); k++) {
      const left = removed[k];
      const right = added[k];
      rows.push({ ...(left ? { left } : {}), ...(right ? { right } : {}) });
    }
  }
  return rows;
}

function SplitCells({ side, lines }: { side: Side | undefined; lines: Token[][] }) {
  if (!side)
    return (
      <>
        <td className="bg-slate-50 dark:bg-slate-900" />
        <td className="border-r border-slate-200 bg-slate-50 dark:border-slate-800 dark:bg-slate-900" />
      </>
    );
  return (
    <>
      <td className={`pr-2 text-right align-top text-slate-400 select-none dark:text-slate-500 ${ROW[side.kind]}`}>
        {side.no}
      </td>
      <td
        className={`border-r border-slate-200 pr-2 pl-1 align-top break-all whitespace-pre-wrap text-slate-800 dark:border-slate-800 dark:text-slate-200 ${ROW[side.kind]}`}
      >
        {side.kind !== 'same' ? (
          <span className="sr-only">{side.kind === 'added' ? 'added: ' : 'removed: '}</span>
        ) : null}
        <Code tokens={lines[side.no - 1]} />
      </td>
    </>
  );
}

export function DiffView({
  before,
  after,
  label,
  language,
  layout = 'unified',
}: {
  before: string;
  after: string;
  label: string;
  language?: string;
  layout?: 'unified' | 'split';
}) {
  const lines = useMemo(() => diffLines(before, after), [before, after]);
  const segments = useMemo(() => unifiedDiff(lines, 3), [lines]);
  const highlighted = useMemo(
    () => ({ before: tokenizeLines(before, language), after: tokenizeLines(after, language) }),
    [before, after, language],
  );
  const rows = useMemo(() => (layout === 'split' ? sideBySide(lines) : []), [layout, lines]);
  const [open, setOpen] = useState<ReadonlySet<number>>(new Set());
  const added = lines.filter((l) => l.kind === 'added').length;
  const removed = lines.filter((l) => l.kind === 'removed').length;
  const summary = (
    <p className="mb-2 text-xs text-slate-500 dark:text-slate-400">
      <span className="text-emerald-700 dark:text-emerald-400">+{added}</span>{' '}
      <span className="text-rose-700 dark:text-rose-400">−{removed}</span> lines
      {added + removed === 0 ? ' · identical' : ''}
    </p>
  );
  if (layout === 'split')
    return (
      <div>
        {summary}
        <div
          role="region"
          aria-label={label}
          tabIndex={0}
          className="max-h-[36rem] overflow-auto rounded-md border border-slate-200 bg-white py-1 dark:border-slate-800 dark:bg-slate-950"
        >
          <table className="w-full table-fixed border-collapse font-mono text-xs leading-5" data-testid="diff-split">
            <colgroup>
              <col className="w-10" />
              <col />
              <col className="w-10" />
              <col />
            </colgroup>
            <tbody>
              {rows.map((row) => (
                <tr key={`${row.left?.no ?? ''}-${row.right?.no ?? ''}`}>
                  <SplitCells side={row.left} lines={highlighted.before} />
                  <SplitCells side={row.right} lines={highlighted.after} />
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </div>
    );
  return (
    <div>
      {summary}
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
                    <Line key={`${line.oldNo ?? ''}-${line.newNo ?? ''}`} line={line} highlighted={highlighted} />
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
