// @vitest-environment happy-dom
// The one table of the web's lists (issue 38 item 4): columns as data, the row and cell test ids kept, phone labels
// from the headers, numbers right-aligned, the empty state in place of the table, and a header that sorts.
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { type Column, DataTable } from '../src/components/DataTable';

afterEach(cleanup);

interface Row {
  id: string;
  name: string;
  ms: number;
}
const rows: Row[] = [
  { id: 'a', name: 'relu', ms: 3 },
  { id: 'b', name: 'gelu', ms: 1 },
  { id: 'c', name: 'tanh', ms: 2 },
];
const columns: Column<Row>[] = [
  { id: 'name', header: 'Name', wide: true, cell: (r) => r.name },
  {
    id: 'time',
    header: 'Time',
    align: 'right',
    testId: 'time',
    cell: (r) => `${r.ms} ms`,
    sort: (x, y) => x.ms - y.ms,
  },
  { id: 'actions', srHeader: 'Actions', cell: (r) => <button type="button">Open {r.name}</button> },
];
const names = () => screen.getAllByTestId('row').map((tr) => within(tr).getAllByRole('cell')[0]?.textContent);

describe('DataTable', () => {
  it('renders the rows with their test ids, phone labels from the headers and right-aligned numbers', () => {
    render(<DataTable testId="list" rows={rows} columns={columns} rowKey={(r) => r.id} rowTestId="row" />);
    expect(screen.getByTestId('list').tagName).toBe('TABLE');
    expect(names()).toEqual(['relu', 'gelu', 'tanh']);
    const time = screen.getAllByTestId('time')[0];
    expect(time?.getAttribute('data-label')).toBe('Time');
    expect(time?.className).toContain('md:text-right');
    // The row's name spans the row on phones, unlabelled; a column under a hidden header has no label either.
    const [name, , actions] = within(screen.getAllByTestId('row')[0] as HTMLElement).getAllByRole('cell');
    expect(name?.hasAttribute('data-label')).toBe(false);
    expect(actions?.hasAttribute('data-label')).toBe(false);
    expect(screen.getByText('Actions').className).toBe('sr-only');
  });

  it('shows the empty state in place of the table, and drops columns given as false', () => {
    render(
      <DataTable rows={[]} columns={columns} rowKey={(r) => r.id} empty={<p>Nothing here yet.</p>} testId="list" />,
    );
    expect(screen.getByText('Nothing here yet.')).toBeTruthy();
    expect(screen.queryByTestId('list')).toBeNull();
    cleanup();
    render(<DataTable rows={rows} columns={[columns[0], false, null]} rowKey={(r) => r.id} variant="plain" />);
    expect(screen.getAllByRole('columnheader')).toHaveLength(1);
  });

  it('orders the rows by a sortable column, ascending then descending', () => {
    render(<DataTable rows={rows} columns={columns} rowKey={(r) => r.id} rowTestId="row" />);
    const header = screen.getByRole('columnheader', { name: /Time/ });
    expect(header.getAttribute('aria-sort')).toBe('none');
    fireEvent.click(within(header).getByRole('button'));
    expect(names()).toEqual(['gelu', 'tanh', 'relu']);
    expect(header.getAttribute('aria-sort')).toBe('ascending');
    fireEvent.click(within(header).getByRole('button'));
    expect(names()).toEqual(['relu', 'tanh', 'gelu']);
    expect(header.getAttribute('aria-sort')).toBe('descending');
  });
});
