// Aligned columns for people; the same rows without colour when stdout is a pipe.
import { type Style, visibleWidth } from './style.js';

export interface Column<Row> {
  header: string;
  value: (row: Row) => string;
  align?: 'left' | 'right';
  /** Colours a cell after padding (padding is computed on the plain text). */
  color?: (text: string, row: Row) => string;
}

export function renderTable<Row>(rows: readonly Row[], columns: readonly Column<Row>[], style: Style): string {
  const cells = rows.map((row) => columns.map((column) => column.value(row)));
  const widths = columns.map((column, i) =>
    Math.max(visibleWidth(column.header), ...cells.map((line) => visibleWidth(line[i] ?? ''))),
  );
  const pad = (text: string, i: number) => {
    const gap = ' '.repeat(Math.max(0, (widths[i] ?? 0) - visibleWidth(text)));
    return columns[i]?.align === 'right' ? gap + text : text + gap;
  };
  const last = columns.length - 1;
  const header = columns.map((column, i) => (i === last ? column.header : pad(column.header, i))).join('  ');
  const lines = [style.bold(header.trimEnd())];
  cells.forEach((line, r) => {
    const row = rows[r] as Row;
    const text = line.map((cell, i) => {
      const padded = i === last && columns[i]?.align !== 'right' ? cell : pad(cell, i);
      const color = columns[i]?.color;
      return color ? color(padded, row) : padded;
    });
    lines.push(text.join('  ').trimEnd());
  });
  return lines.join('\n');
}
