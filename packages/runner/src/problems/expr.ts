// Evaluates the arithmetic in shapes and cost formulas ("2*n*n*n", "rows*cols+cols") without eval().
export type Vars = Readonly<Record<string, number>>;

const TOKEN = /\s*(\d+(?:\.\d+)?(?:e[+-]?\d+)?|[A-Za-z_][A-Za-z0-9_]*|[-+*/()^,])/y;

export function evalExpr(expr: string, vars: Vars): number {
  const tokens: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < expr.length) {
    const m = TOKEN.exec(expr);
    if (!m) break;
    tokens.push(m[1] ?? '');
  }
  if (TOKEN.lastIndex < expr.trimEnd().length) throw new Error(`cannot read expression "${expr}"`);
  let pos = 0;
  const peek = () => tokens[pos];
  const next = () => tokens[pos++];
  const expect = (t: string) => {
    if (next() !== t) throw new Error(`expected "${t}" in "${expr}"`);
  };
  function primary(): number {
    const t = next();
    if (t === undefined) throw new Error(`unexpected end of "${expr}"`);
    if (t === '(') {
      const v = sum();
      expect(')');
      return v;
    }
    if (t === '-') return -primary();
    if (/^\d/.test(t)) return Number(t);
    if (t === 'min' || t === 'max') {
      expect('(');
      const a = sum();
      expect(',');
      const b = sum();
      expect(')');
      return t === 'min' ? Math.min(a, b) : Math.max(a, b);
    }
    const v = vars[t];
    if (v === undefined) throw new Error(`unknown name "${t}" in "${expr}"`);
    return v;
  }
  function power(): number {
    const base = primary();
    if (peek() === '^') {
      next();
      return base ** power();
    }
    return base;
  }
  function product(): number {
    let v = power();
    while (peek() === '*' || peek() === '/') v = next() === '*' ? v * power() : v / power();
    return v;
  }
  function sum(): number {
    let v = product();
    while (peek() === '+' || peek() === '-') v = next() === '+' ? v + product() : v - product();
    return v;
  }
  const v = sum();
  if (pos !== tokens.length) throw new Error(`unexpected "${tokens[pos]}" in "${expr}"`);
  return v;
}

/** The names an expression refers to (to validate shapes against the signature). */
export function namesIn(expr: string): string[] {
  return (expr.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? []).filter((n) => n !== 'min' && n !== 'max');
}
