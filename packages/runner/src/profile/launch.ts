// The block size a kernel is launched with, where the source states it plainly: `kernel<<<grid, 256>>>`,
// `kernel<<<grid, BLOCK>>>` with `#define BLOCK 256` or `const int BLOCK = 256;`, `dim3 block(16, 16)` (256), a
// template's launch `k<64><<<g, 64>>>`. A size computed at run time is not known (null).

/** Literal integer constants of the source: `#define N 256`, `[static] const[expr] int N = 256;`. */
function constantsOf(source: string): Map<string, number> {
  const names = new Map<string, number>();
  for (const m of source.matchAll(
    /^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)[ \t]+\(?[ \t]*(\d+)[uUlL]*[ \t]*\)?[ \t]*$/gm,
  ))
    names.set(m[1] as string, Number(m[2]));
  for (const m of source.matchAll(
    /\b(?:constexpr|const)\s+(?:(?:static|unsigned|signed|long|short|int|size_t|int\d+_t|uint\d+_t|auto)\s+)*([A-Za-z_]\w*)\s*=\s*(\d+)[uUlL]*\s*;/g,
  ))
    names.set(m[1] as string, Number(m[2]));
  return names;
}

/** An expression of integer literals and known constants joined by * (e.g. `16 * 16`, `TILE*TILE`); null otherwise. */
function constantValue(expr: string, names: Map<string, number>): number | null {
  const parts = expr.split('*').map((p) =>
    p
      .trim()
      .replace(/^\((.*)\)$/, '$1')
      .trim(),
  );
  let v = 1;
  for (const p of parts) {
    const lit = /^(\d+)[uUlL]*$/.exec(p);
    if (lit) v *= Number(lit[1]);
    else if (names.has(p)) v *= names.get(p) as number;
    else return null;
  }
  return v;
}

/** `dim3 name(a, b, c)` / `dim3 name = dim3(a, b)` / `dim3 name{a, b}` with known parts: their product. */
function dim3sOf(source: string, names: Map<string, number>): Map<string, number> {
  const dims = new Map<string, number>();
  for (const m of source.matchAll(/\bdim3\s+([^;]{0,400});/g))
    for (const d of (m[1] as string).matchAll(/([A-Za-z_]\w*)\s*(?:=\s*dim3\s*)?[({]([^(){}]*)[)}]/g)) {
      const parts = (d[2] as string).split(',').map((p) => constantValue(p, names));
      if (parts.length > 0 && parts.length <= 3 && parts.every((p) => p !== null))
        dims.set(
          d[1] as string,
          (parts as number[]).reduce((a, b) => a * b, 1),
        );
    }
  return dims;
}

/** The top-level comma-separated arguments of a launch's `<<<...>>>`. */
function launchArgs(inside: string): string[] {
  const args: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of inside) {
    if ('([{'.includes(ch)) depth++;
    if (')]}'.includes(ch)) depth--;
    if (ch === ',' && depth === 0) {
      args.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  args.push(cur.trim());
  return args;
}

/**
 * Block sizes of the source's launches by kernel name (the name as written, without template arguments: `tiled` for
 * `tiled<256><<<...>>>`); one name launched with several known sizes keeps them all, a launch with a size not known
 * here is left out.
 */
export function launchBlockSizes(source: string): Map<string, number[]> {
  const names = constantsOf(source);
  const dims = dim3sOf(source, names);
  const out = new Map<string, number[]>();
  // Bounded lengths: a source is untrusted, and these run in the runner's own process (no regex may go quadratic).
  for (const m of source.matchAll(
    /\b([A-Za-z_]\w{0,200})\s{0,20}(?:<[^<>;]{0,200}(?:<[^<>;]{0,200}>[^<>;]{0,200}){0,4}>)?\s{0,20}<<<([^;]{0,400}?)>>>/g,
  )) {
    const args = launchArgs(m[2] as string);
    const block = args[1];
    if (!block) continue;
    const inline = /^dim3\s*[({]([^(){}]*)[)}]$/.exec(block);
    let size: number | null;
    if (inline) {
      const parts = (inline[1] as string).split(',').map((p) => constantValue(p, names));
      size = parts.every((p) => p !== null) ? (parts as number[]).reduce((a, b) => a * b, 1) : null;
    } else size = dims.get(block) ?? constantValue(block, names);
    if (size === null || size <= 0 || size > 1 << 20) continue;
    const list = out.get(m[1] as string) ?? [];
    if (!list.includes(size)) list.push(size);
    out.set(m[1] as string, list);
  }
  return out;
}

/** The base name of a demangled kernel: `tiled` for `void tiled<256>(float const*, float*, int)` or `ns::k(int)`. */
export function baseName(demangled: string): string {
  let s = demangled.replace(/^void\s+/, '');
  const paren = s.indexOf('(');
  if (paren >= 0) s = s.slice(0, paren);
  // Drop template arguments (balanced), then namespaces.
  let out = '';
  let depth = 0;
  for (const ch of s) {
    if (ch === '<') depth++;
    else if (ch === '>') depth--;
    else if (depth === 0) out += ch;
  }
  return out.split('::').pop()?.trim() ?? out.trim();
}
