// The one table of the web's lists: columns as data (header, cell, alignment, optional sort), rows keyed and
// test-id'd, an empty state; `stacked` (the default) turns each row into labelled cells on phones.
import { type ReactNode, useState } from 'react';
import { stacked } from '../lib/stackedTable';

export interface Column<T> {
  /** Names the column for React and for sorting; the header when no `header` is given. */
  id: string;
  /** The header cell's content (default: the id). A header only screen readers hear: `srHeader`. */
  header?: ReactNode;
  /** Hidden header text (an actions or tick-box column). */
  srHeader?: string;
  cell: (row: T, index: number) => ReactNode;
  /** Numbers: right-aligned, tabular figures. */
  align?: 'left' | 'right';
  /** Stacked tables: the cell spans the row on phones and has no label (the row's name, its actions). */
  wide?: boolean;
  /** Stacked tables: the label a cell shows on phones (default: the header, when it is a string; none under an
   * `srHeader`). */
  label?: string;
  /** Extra classes of each body cell, and of the header cell. */
  className?: string;
  headerClassName?: string;
  /** The header cell's tooltip. */
  headerTitle?: string;
  testId?: string;
  title?: (row: T) => string | undefined;
  /** Further attributes of each body cell (data-* attributes the tests read). */
  cellProps?: (row: T) => Record<string, string | undefined>;
  /** Makes the header a button that orders the rows by this comparison (ascending first). */
  sort?: (a: T, b: T) => number;
}

export interface TableClasses {
  table: string;
  thead: string;
  headRow: string;
  tbody: string;
  row: string;
  th: string;
  cell: string;
  /** Added to right-aligned header and body cells. */
  numHead: string;
  num: string;
}

const STACKED: TableClasses = {
  table: stacked.table,
  thead: stacked.thead,
  headRow: '',
  tbody: stacked.tbody,
  row: stacked.row,
  th: stacked.th,
  cell: stacked.cell,
  numHead: 'text-right',
  num: stacked.num,
};

/** An ordinary table at every width (wide figures scroll sideways instead of stacking). */
export const PLAIN: TableClasses = {
  table: 'w-full text-left text-sm',
  thead: 'text-xs text-slate-500 uppercase dark:text-slate-400',
  headRow: '',
  tbody: '',
  row: 'border-t border-slate-100 dark:border-slate-800',
  th: 'py-2 pr-4 font-medium',
  cell: 'py-2 pr-4',
  numHead: 'text-right',
  num: 'text-right tabular-nums',
};

/** The sweeps' tables: normal-case headers, tighter rows, as wide as their figures need. */
const COMPACT: TableClasses = {
  table: 'min-w-full text-sm',
  thead: '',
  headRow: 'text-left text-slate-600 dark:text-slate-400',
  tbody: '',
  row: 'border-t border-slate-200 dark:border-slate-800',
  th: 'py-1 pr-3 font-medium',
  cell: 'py-1 pr-3',
  numHead: 'text-right',
  num: 'text-right tabular-nums',
};

const VARIANTS = { stacked: STACKED, plain: PLAIN, compact: COMPACT } as const;

const join = (...names: (string | false | undefined)[]) => names.filter(Boolean).join(' ');

export function DataTable<T>({
  rows,
  columns,
  rowKey,
  rowTestId,
  rowClassName,
  rowProps,
  testId,
  empty,
  variant = 'stacked',
  classes,
  caption,
  captionClassName = 'sr-only',
  ariaLabel,
}: {
  rows: readonly T[];
  columns: readonly (Column<T> | false | null | undefined)[];
  rowKey: (row: T, index: number) => string | number;
  rowTestId?: string | ((row: T) => string | undefined);
  rowClassName?: (row: T) => string | undefined;
  /** Further attributes of a row (data-* attributes the tests read). */
  rowProps?: (row: T) => Record<string, string | undefined>;
  testId?: string;
  /** Shown in place of the table when there is no row (nothing by default, the table with its header). */
  empty?: ReactNode;
  variant?: keyof typeof VARIANTS;
  /** Class names over those of the variant. */
  classes?: Partial<TableClasses>;
  caption?: ReactNode;
  /** The caption is for screen readers unless given classes to show it. */
  captionClassName?: string;
  ariaLabel?: string;
}) {
  const [order, setOrder] = useState<{ id: string; dir: 1 | -1 } | null>(null);
  if (rows.length === 0 && empty !== undefined) return <>{empty}</>;
  const isStacked = variant === 'stacked';
  const c: TableClasses = { ...VARIANTS[variant], ...classes };
  const cols = columns.filter((col): col is Column<T> => Boolean(col));
  const sorter = order ? cols.find((col) => col.id === order.id)?.sort : undefined;
  const shown = sorter && order ? [...rows].sort((a, b) => order.dir * sorter(a, b)) : rows;
  const label = (col: Column<T>) =>
    isStacked && !col.wide ? (col.label ?? (typeof col.header === 'string' ? col.header : undefined)) : undefined;

  return (
    <table className={c.table} data-testid={testId} aria-label={ariaLabel}>
      {caption ? <caption className={captionClassName}>{caption}</caption> : null}
      <thead className={c.thead || undefined}>
        <tr className={c.headRow || undefined}>
          {cols.map((col) => {
            const content = col.srHeader ? <span className="sr-only">{col.srHeader}</span> : (col.header ?? col.id);
            const sorted = order?.id === col.id ? order.dir : 0;
            return (
              <th
                key={col.id}
                className={join(c.th, col.align === 'right' && c.numHead, col.headerClassName)}
                title={col.headerTitle}
                aria-sort={col.sort ? (sorted === 1 ? 'ascending' : sorted === -1 ? 'descending' : 'none') : undefined}
              >
                {col.sort ? (
                  <button
                    type="button"
                    className="inline-flex items-center gap-1 uppercase hover:text-slate-900 dark:hover:text-slate-100"
                    onClick={() => setOrder({ id: col.id, dir: sorted === 1 ? -1 : 1 })}
                  >
                    {content}
                    <span aria-hidden="true">{sorted === 1 ? '▲' : sorted === -1 ? '▼' : '↕'}</span>
                  </button>
                ) : (
                  content
                )}
              </th>
            );
          })}
        </tr>
      </thead>
      <tbody className={c.tbody || undefined}>
        {shown.map((row, i) => (
          <tr
            key={rowKey(row, i)}
            className={join(c.row, rowClassName?.(row)) || undefined}
            data-testid={typeof rowTestId === 'function' ? rowTestId(row) : rowTestId}
            {...rowProps?.(row)}
          >
            {cols.map((col) => (
              <td
                key={col.id}
                data-label={label(col)}
                className={join(
                  c.cell,
                  isStacked && col.wide && stacked.wide,
                  col.align === 'right' && c.num,
                  col.className,
                )}
                data-testid={col.testId}
                title={col.title?.(row)}
                {...col.cellProps?.(row)}
              >
                {col.cell(row, i)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
