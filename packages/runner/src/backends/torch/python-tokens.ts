// A small Python tokenizer for the static scan of submissions: names, operators and string literals with their
// positions, comments dropped, logical lines split into statements (with indentation), no Python needed.

export interface Token {
  kind: 'name' | 'op' | 'number' | 'string' | 'newline';
  /** Names are NFKC-normalized, as Python does (`ｅｘｅｃ` is `exec`). */
  value: string;
  /** Index in the source where the token starts. */
  at: number;
  /** Strings: the prefix letters, lower-cased (`r`, `f`, `rb`, ...). */
  prefix?: string;
  /** Strings: the text between the quotes, and where it starts in the source. */
  body?: string;
  bodyAt?: number;
}

export interface Statement {
  /** The column of the line it starts on; a body on its header's line gets the header's column + 0.5. */
  indent: number;
  tokens: Token[];
}

const OPS = [
  '**=',
  '//=',
  '>>=',
  '<<=',
  '...',
  '->',
  ':=',
  '==',
  '!=',
  '<=',
  '>=',
  '+=',
  '-=',
  '*=',
  '/=',
  '%=',
  '&=',
  '|=',
  '^=',
  '@=',
  '**',
  '//',
  '<<',
  '>>',
];
const NAME = /[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]*/uy;
const STRING_START = /([rRbBuUfF]{0,2})('''|"""|'|")/y;
const NUMBER = /(?:\d[\w.]*|\.\d[\w.]*)/y;

/** Line numbers (1-based) of source indices. */
export function lineIndex(source: string): (at: number) => number {
  const starts = [0];
  for (let i = 0; i < source.length; i++) if (source[i] === '\n') starts.push(i + 1);
  return (at) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] as number) <= at) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
}

/** Tokens of source[from, to): a newline token ends each logical line (none inside brackets or after `\`). */
export function tokenize(source: string, from = 0, to = source.length): Token[] {
  const out: Token[] = [];
  let depth = 0;
  let i = from;
  while (i < to) {
    const c = source[i] as string;
    if (c === '#') {
      while (i < to && source[i] !== '\n') i++;
      continue;
    }
    if (c === '\\' && source[i + 1] === '\n') {
      i += 2;
      continue;
    }
    if (c === '\n') {
      if (depth === 0 && out.length > 0 && out[out.length - 1]?.kind !== 'newline')
        out.push({ kind: 'newline', value: '\n', at: i });
      i++;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r' || c === '\f') {
      i++;
      continue;
    }
    STRING_START.lastIndex = i;
    const s = STRING_START.exec(source);
    if (s && /^(|r|u|b|f|br|rb|fr|rf)$/i.test(s[1] as string)) {
      const quote = s[2] as string;
      const bodyAt = i + s[0].length;
      let j = bodyAt;
      while (j < to && !source.startsWith(quote, j)) {
        if (source[j] === '\\') j++;
        else if (quote.length === 1 && source[j] === '\n') break;
        j++;
      }
      const body = source.slice(bodyAt, Math.min(j, to));
      out.push({ kind: 'string', value: body, at: i, prefix: (s[1] as string).toLowerCase(), body, bodyAt });
      i = Math.min(j + quote.length, to);
      continue;
    }
    NAME.lastIndex = i;
    const n = NAME.exec(source);
    if (n) {
      out.push({ kind: 'name', value: n[0].normalize('NFKC'), at: i });
      i += n[0].length;
      continue;
    }
    NUMBER.lastIndex = i;
    const num = NUMBER.exec(source);
    if (num) {
      out.push({ kind: 'number', value: num[0], at: i });
      i += num[0].length;
      continue;
    }
    const op = OPS.find((o) => source.startsWith(o, i)) ?? c;
    if ('([{'.includes(op)) depth++;
    else if (')]}'.includes(op)) depth = Math.max(0, depth - 1);
    out.push({ kind: 'op', value: op, at: i });
    i += op.length;
  }
  if (out.length > 0 && out[out.length - 1]?.kind !== 'newline') out.push({ kind: 'newline', value: '\n', at: to });
  return out;
}

/** The `{...}` expressions of an f-string's body, as [from, to) ranges of the source. */
export function fStringExpressions(t: Token): Array<[number, number]> {
  const body = t.body ?? '';
  const base = t.bodyAt ?? t.at;
  const out: Array<[number, number]> = [];
  let i = 0;
  while (i < body.length) {
    if (body.startsWith('{{', i)) {
      i += 2;
      continue;
    }
    if (body[i] !== '{') {
      i++;
      continue;
    }
    let depth = 1;
    let j = i + 1;
    let quote = '';
    while (j < body.length && depth > 0) {
      const c = body[j] as string;
      if (quote) {
        if (c === quote) quote = '';
      } else if (c === "'" || c === '"') quote = c;
      else if ('([{'.includes(c)) depth++;
      else if (')]}'.includes(c)) depth--;
      j++;
    }
    out.push([base + i + 1, base + j - 1]);
    i = j;
  }
  return out;
}

const COMPOUND = new Set(['if', 'elif', 'else', 'for', 'while', 'try', 'except', 'finally', 'with', 'def', 'class']);

/** Statements, in order: logical lines split at `;` and after a compound header's `:` (its body on that line). */
export function statements(tokens: readonly Token[], columnOf: (at: number) => number): Statement[] {
  const out: Statement[] = [];
  let line: Token[] = [];
  for (const t of tokens) {
    if (t.kind !== 'newline') {
      line.push(t);
      continue;
    }
    if (line.length === 0) continue;
    let indent = columnOf((line[0] as Token).at);
    let rest = line;
    line = [];
    while (rest.length > 0) {
      const cut = splitPoint(rest);
      const head = rest.slice(0, cut.at);
      if (head.length > 0) out.push({ indent, tokens: head });
      rest = rest.slice(cut.at + 1);
      if (cut.header) indent += 0.5;
    }
  }
  return out;
}

/** Where the first statement of `ts` ends: a depth-0 `;`, or a compound header's `:`; else its end. */
function splitPoint(ts: readonly Token[]): { at: number; header: boolean } {
  let first = 0;
  if (ts[0]?.value === 'async') first = 1;
  const compound = ts[first]?.kind === 'name' && COMPOUND.has(ts[first]?.value as string);
  let depth = 0;
  let lambdas = 0;
  for (const [k, t] of ts.entries()) {
    if (t.kind !== 'op' && !(t.kind === 'name' && t.value === 'lambda')) continue;
    if (t.value === 'lambda') {
      if (depth === 0) lambdas++;
    } else if ('([{'.includes(t.value)) depth++;
    else if (')]}'.includes(t.value)) depth = Math.max(0, depth - 1);
    else if (depth === 0 && t.value === ';') return { at: k, header: false };
    else if (depth === 0 && t.value === ':') {
      if (lambdas > 0) lambdas--;
      else if (compound) return { at: k, header: true };
    }
  }
  return { at: ts.length, header: false };
}
