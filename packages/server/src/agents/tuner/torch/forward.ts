// Reads a KernelBench reference's Model.forward: its parameter list and its statements, one per logical line.

export interface ForwardSource {
  /** The text between `def forward(` and the closing `)`, e.g. `self, x: torch.Tensor`. */
  params: string;
  /** Statements in order, each one logical line with its continuation lines joined, indentation removed. */
  statements: string[];
}

const depth = (s: string) => {
  let d = 0;
  for (const ch of s.replace(/(["'])(?:\\.|(?!\1).)*\1/g, '""')) {
    if ('([{'.includes(ch)) d++;
    else if (')]}'.includes(ch)) d--;
  }
  return d;
};

/** The class `Model`'s forward, or null when the file does not write one the tuner can read. */
export function readForward(source: string): ForwardSource | null {
  const lines = source.replace(/\r\n/g, '\n').split('\n');
  const cls = lines.findIndex((l) => /^class\s+Model\s*[(:]/.test(l));
  if (cls < 0) return null;
  let i = lines.findIndex((l, k) => k > cls && /^\s+def\s+forward\s*\(/.test(l));
  if (i < 0) return null;
  // The header may span lines.
  let header = lines[i] ?? '';
  while (depth(header) > 0 && i + 1 < lines.length) header += ` ${(lines[++i] ?? '').trim()}`;
  const m = /def\s+forward\s*\(([\s\S]*)\)\s*(?:->[^:]*)?:\s*(#.*)?$/.exec(header);
  if (!m) return null;
  const indent = /^(\s*)/.exec(lines[i] ?? '')?.[1]?.length ?? 0;
  const body: string[] = [];
  for (let k = i + 1; k < lines.length; k++) {
    const l = lines[k] ?? '';
    if (l.trim() === '') continue;
    if ((/^(\s*)/.exec(l)?.[1]?.length ?? 0) <= indent) break;
    body.push(l);
  }
  const statements: string[] = [];
  let k = 0;
  while (k < body.length) {
    let s = (body[k] ?? '').trim();
    k++;
    // A docstring, possibly over several lines.
    const q = /^[rRuU]?("""|''')/.exec(s)?.[1];
    if (q) {
      let rest = s.slice(s.indexOf(q) + 3);
      while (!rest.includes(q) && k < body.length) rest = body[k++] ?? '';
      continue;
    }
    if (s.startsWith('#')) continue;
    while (depth(s) > 0 && k < body.length) s += ` ${(body[k++] ?? '').trim()}`;
    statements.push(s.replace(/\s+#[^"']*$/, '').trim());
  }
  return { params: (m[1] ?? '').replace(/\s+/g, ' ').trim(), statements };
}
