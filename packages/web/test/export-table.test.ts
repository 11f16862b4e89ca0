import { describe, expect, it } from 'vitest';
import { toCsv, toJson } from '../src/lib/exportTable';

describe('results as CSV and JSON', () => {
  const table = {
    columns: ['name', 'time_ms', 'ok', 'note'],
    rows: [
      ['plain', 1.5, true, null],
      ['a, "quoted"\nname', 0.25, false, '=HYPERLINK("x")'],
    ],
  } as const;

  it('writes RFC 4180 CSV: quotes doubled inside quoted cells, CRLF rows, null as empty, formulas kept as text', () => {
    expect(toCsv(table)).toBe(
      'name,time_ms,ok,note\r\nplain,1.5,true,\r\n"a, ""quoted""\nname",0.25,false,"\'=HYPERLINK(""x"")"\r\n',
    );
  });

  it('writes JSON records with the same keys, numbers and booleans as they are', () => {
    expect(JSON.parse(toJson(table))).toEqual([
      { name: 'plain', time_ms: 1.5, ok: true, note: null },
      { name: 'a, "quoted"\nname', time_ms: 0.25, ok: false, note: '=HYPERLINK("x")' },
    ]);
  });
});
