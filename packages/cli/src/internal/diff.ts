// A unified line diff (Myers' O(ND) algorithm), enough to compare two attempts' sources.

type Op = { kind: ' ' | '-' | '+'; line: string };

function diffLines(a: string[], b: string[]): Op[] {
  const n = a.length;
  const m = b.length;
  const max = n + m;
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const at = (arr: Int32Array, k: number) => arr[offset + k] ?? 0;
  // trace[d] is v as it was before step d.
  const trace: Int32Array[] = [];
  search: for (let d = 0; d <= max; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && at(v, k - 1) < at(v, k + 1)) ? at(v, k + 1) : at(v, k - 1) + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) break search;
    }
  }
  const ops: Op[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d >= 0; d--) {
    const vd = trace[d] as Int32Array;
    const k = x - y;
    const prevK = k === -d || (k !== d && at(vd, k - 1) < at(vd, k + 1)) ? k + 1 : k - 1;
    const prevX = at(vd, prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      x--;
      y--;
      ops.push({ kind: ' ', line: a[x] as string });
    }
    if (d > 0) {
      if (x === prevX) ops.push({ kind: '+', line: b[prevY] as string });
      else ops.push({ kind: '-', line: a[prevX] as string });
    }
    x = prevX;
    y = prevY;
  }
  return ops.reverse();
}

/** `diff -u` style text; empty when the sources are the same. */
export function unifiedDiff(before: string, after: string, fromName: string, toName: string, context = 3): string {
  const a = splitLines(before);
  const b = splitLines(after);
  const ops = diffLines(a, b);
  if (ops.every((op) => op.kind === ' ')) return '';
  const out = [`--- ${fromName}`, `+++ ${toName}`];
  let i = 0;
  // Line numbers (1-based) in a and b at each op.
  const posA: number[] = [];
  const posB: number[] = [];
  let la = 1;
  let lb = 1;
  for (const op of ops) {
    posA.push(la);
    posB.push(lb);
    if (op.kind !== '+') la++;
    if (op.kind !== '-') lb++;
  }
  while (i < ops.length) {
    while (i < ops.length && ops[i]?.kind === ' ') i++;
    if (i >= ops.length) break;
    const start = Math.max(0, i - context);
    let end = i;
    // Extend the hunk while changes are closer than 2 * context lines apart.
    for (;;) {
      while (end < ops.length && ops[end]?.kind !== ' ') end++;
      let next = end;
      while (next < ops.length && ops[next]?.kind === ' ') next++;
      if (next < ops.length && next - end <= 2 * context) end = next;
      else {
        end = Math.min(ops.length, end + context);
        break;
      }
    }
    const hunk = ops.slice(start, end);
    const aCount = hunk.filter((op) => op.kind !== '+').length;
    const bCount = hunk.filter((op) => op.kind !== '-').length;
    const aStart = aCount === 0 ? (posA[start] ?? 1) - 1 : (posA[start] ?? 1);
    const bStart = bCount === 0 ? (posB[start] ?? 1) - 1 : (posB[start] ?? 1);
    out.push(`@@ -${aStart},${aCount} +${bStart},${bCount} @@`);
    for (const op of hunk) out.push(`${op.kind}${op.line}`);
    i = end;
  }
  return `${out.join('\n')}\n`;
}

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}
