// Class names for tables that become labelled rows on phones: below md each row is a small grid of
// "label: value" cells (the label comes from the cell's data-label), from md up an ordinary table.
export const stacked = {
  table: 'w-full text-left text-sm max-md:block',
  thead: 'text-xs text-slate-500 uppercase max-md:sr-only dark:text-slate-400',
  tbody: 'max-md:block',
  row: 'border-t border-slate-100 align-top max-md:grid max-md:grid-cols-2 max-md:gap-x-4 max-md:gap-y-1 max-md:py-3 dark:border-slate-800',
  th: 'py-2 pr-4 font-medium',
  cell: 'py-2 pr-4 max-md:p-0 max-md:before:block max-md:before:text-[11px] max-md:before:font-medium max-md:before:text-slate-500 max-md:before:uppercase max-md:before:content-[attr(data-label)] dark:max-md:before:text-slate-400',
  /** A cell that spans the whole row on phones (the name or link of the row). */
  wide: 'max-md:col-span-2 max-md:before:hidden',
  num: 'tabular-nums md:text-right',
} as const;
