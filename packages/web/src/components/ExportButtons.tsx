// "Download CSV" and "Download JSON" for a table of results, made in the browser from what the page already shows.
import { type ExportTable, toCsv, toJson } from '../lib/exportTable';
import { Button } from './Button';

function download(name: string, type: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function ExportButtons({ name, table, what }: { name: string; table: () => ExportTable; what: string }) {
  const file = name.replace(/[^A-Za-z0-9._]+/g, '-').replace(/^-|-$/g, '') || 'results';
  return (
    <span className="inline-flex flex-wrap gap-2" data-testid="export">
      <Button
        size="sm"
        aria-label={`Download ${what} as CSV`}
        onClick={() => download(`${file}.csv`, 'text/csv;charset=utf-8', toCsv(table()))}
      >
        Download CSV
      </Button>
      <Button
        size="sm"
        aria-label={`Download ${what} as JSON`}
        onClick={() => download(`${file}.json`, 'application/json', toJson(table()))}
      >
        Download JSON
      </Button>
    </span>
  );
}
