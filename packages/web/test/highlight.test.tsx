// @vitest-environment happy-dom
// The C highlighter reads comments first (issue 23 item 8): nothing inside a comment is a string or a keyword, and a
// string holding `/*` or `//` stays a string; a diff colours a block comment's middle lines as comment too.
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { CodeView } from '../src/components/CodeView';
import { DiffView } from '../src/components/DiffView';
import { type Token, tokenize, tokenizeLines } from '../src/lib/highlight';

afterEach(cleanup);

const kinds = (tokens: Token[]) => tokens.filter((t) => t.kind !== 'plain').map((t) => [t.kind, t.text]);

describe('C highlighting of comments and strings', () => {
  it('a block comment with an apostrophe is one comment, across lines, and what follows it is code', () => {
    const source = "/* it's the\n   for loop's tail: return early\n   if n is odd */\nint x = 'a';\n";
    const tokens = tokenize(source);
    expect(tokens.map((t) => t.text).join('')).toBe(source);
    expect(kinds(tokens)).toEqual([
      ['comment', "/* it's the\n   for loop's tail: return early\n   if n is odd */"],
      ['type', 'int'],
      ['string', "'a'"],
    ]);
  });

  it('a line comment holds no string and no keyword', () => {
    expect(kinds(tokenize('x = 1; // don\'t return here if it\'s "odd"\nreturn x;'))).toEqual([
      ['number', '1'],
      ['comment', '// don\'t return here if it\'s "odd"'],
      ['keyword', 'return'],
    ]);
  });

  it('a string holding /* or // stays a string, and code after it is code', () => {
    expect(kinds(tokenize('const char *s = "/* not a comment"; return 0; // real'))).toEqual([
      ['keyword', 'const'],
      ['type', 'char'],
      ['string', '"/* not a comment"'],
      ['keyword', 'return'],
      ['number', '0'],
      ['comment', '// real'],
    ]);
    expect(kinds(tokenize('puts("http://x"); char c = \'/\';'))).toEqual([
      ['fn', 'puts'],
      ['string', '"http://x"'],
      ['type', 'char'],
      ['string', "'/'"],
    ]);
  });

  it('an unclosed block comment runs to the end of the source', () => {
    const tokens = tokenize("int a; /* it's\nnot closed while for");
    expect(kinds(tokens)).toEqual([
      ['type', 'int'],
      ['comment', "/* it's\nnot closed while for"],
    ]);
  });

  it('line by line, a block comment’s middle lines stay comment', () => {
    const lines = tokenizeLines("int a;\n/* it's\n while */\nreturn a;");
    expect(lines.map(kinds)).toEqual([
      [['type', 'int']],
      [['comment', "/* it's"]],
      [['comment', ' while */']],
      [['keyword', 'return']],
    ]);
  });
});

describe('code on the page', () => {
  it('the code view shows no string or keyword inside a comment', () => {
    render(<CodeView source={"/* it's for\n   speed */\nint f(void) { return 0; }"} label="Source" />);
    const code = screen.getByLabelText('Source');
    expect(Array.from(code.querySelectorAll('.tok-string'))).toHaveLength(0);
    expect(Array.from(code.querySelectorAll('.tok-keyword')).map((e) => e.textContent)).toEqual(['return']);
    expect(code.querySelector('.tok-comment')?.textContent).toBe("/* it's for\n   speed */");
  });

  it('a diff colours each line as it reads in the whole file', () => {
    const before = "/* it's\n   for x */\nint a;";
    const after = "/* it's\n   for y */\nint a;";
    for (const layout of ['unified', 'split'] as const) {
      render(<DiffView before={before} after={after} label="Diff" layout={layout} />);
      const region = screen.getByRole('region', { name: 'Diff' });
      expect(region.querySelectorAll('.tok-string')).toHaveLength(0);
      expect(region.querySelectorAll('.tok-keyword')).toHaveLength(0);
      const comments = Array.from(region.querySelectorAll('.tok-comment')).map((e) => e.textContent);
      expect(comments).toEqual(expect.arrayContaining(['   for x */', '   for y */']));
      cleanup();
    }
  });
});
