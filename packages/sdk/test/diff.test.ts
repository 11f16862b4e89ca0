// The one line diff the web's folded view and the CLI's `diff -u` text share.
import { describe, expect, it } from 'vitest';
import { diffLines, unifiedDiff, unifiedDiffText } from '../src/index.js';

const lines = (n: number, changed = -1) =>
  Array.from({ length: n }, (_, i) => (i === changed ? `changed ${i}` : `line ${i}`)).join('\n');

describe('diff', () => {
  it('a replaced line is removed, then added', () => {
    expect(diffLines('a\nb\nc', 'a\nx\nc').map((l) => `${l.kind}:${l.text}`)).toEqual([
      'same:a',
      'removed:b',
      'added:x',
      'same:c',
    ]);
  });

  it('folds unchanged runs beyond 3 lines of context', () => {
    const segments = unifiedDiff(diffLines(lines(40), lines(40, 20)), 3);
    expect(segments.map((s) => [s.kind, s.lines.length])).toEqual([
      ['fold', 17],
      ['lines', 8],
      ['fold', 16],
    ]);
  });

  it('writes diff -u text with 1-based hunk headers, and nothing for equal sources', () => {
    const text = unifiedDiffText(`${lines(10)}\n`, `${lines(10, 4)}\n`, 'attempt #1', 'attempt #2');
    expect(text).toBe(
      [
        '--- attempt #1',
        '+++ attempt #2',
        '@@ -2,7 +2,7 @@',
        ' line 1',
        ' line 2',
        ' line 3',
        '-line 4',
        '+changed 4',
        ' line 5',
        ' line 6',
        ' line 7',
        '',
      ].join('\n'),
    );
    expect(unifiedDiffText('same\n', 'same\n', 'a', 'b')).toBe('');
    expect(unifiedDiffText('', 'new\n', 'a', 'b')).toBe('--- a\n+++ b\n@@ -0,0 +1,1 @@\n+new\n');
  });
});
