// Picks `solution` and what it reaches out of a worker's disassembly, and marks its hot loop.
import type { HotLoop } from '@kernelforge/sdk';

export const ASSEMBLY_CAP = 64 * 1024;
const ROOT = 'solution';

interface Fn {
  name: string;
  lines: string[];
}

/** objdump -d output split into functions by their `0000000000001170 <name>:` headers. */
function functionsOf(objdump: string): Map<string, Fn> {
  const fns = new Map<string, Fn>();
  let current: Fn | null = null;
  for (const line of objdump.split('\n')) {
    const head = /^[0-9a-f]+ <([^>]+)>:$/.exec(line);
    if (head?.[1]) {
      current = { name: head[1], lines: [line] };
      if (!fns.has(current.name)) fns.set(current.name, current);
      continue;
    }
    if (current && /^\s+[0-9a-f]+:\t/.test(line)) current.lines.push(line);
    else if (line.trim() === '' || line.startsWith('Disassembly of section')) current = null;
  }
  return fns;
}

/** `solution` first, then every function of the worker it names (call targets, the addresses it hands
    GOMP_parallel), breadth first; the PLT stubs (libc, libgomp) are left out. */
export function selectAssembly(objdump: string): { symbols: string[]; assembly: string; truncated: boolean } {
  const fns = functionsOf(objdump);
  if (!fns.has(ROOT)) return { symbols: [], assembly: '', truncated: false };
  const order: string[] = [ROOT];
  for (let i = 0; i < order.length; i++) {
    const fn = fns.get(order[i] as string) as Fn;
    for (const line of fn.lines.slice(1))
      for (const m of line.matchAll(/<([^>+]+)(?:\+0x[0-9a-f]+)?>/g)) {
        const name = m[1] as string;
        if (!name.endsWith('@plt') && fns.has(name) && !order.includes(name)) order.push(name);
      }
  }
  let assembly = order.map((n) => (fns.get(n) as Fn).lines.join('\n')).join('\n\n');
  const truncated = Buffer.byteLength(assembly) > ASSEMBLY_CAP;
  if (truncated) {
    assembly = Buffer.from(assembly).subarray(0, ASSEMBLY_CAP).toString('utf8');
    assembly = assembly.slice(0, assembly.lastIndexOf('\n'));
  }
  return { symbols: order, assembly, truncated };
}

function vectorBits(line: string): number | null {
  if (/%zmm/.test(line)) return 512;
  if (/%ymm/.test(line)) return 256;
  // xmm is also the scalar float register: only packed operations count as vector.
  if (/%xmm/.test(line) && /\s(v?\w*p[sd]|v?p\w+|v?movdq\w*|v?movap\w*|v?movup\w*)\s/.test(line)) return 128;
  return null;
}

/** The innermost backward-branch loop with the widest vector registers (ties: the shorter one); a scalar loop when
    none uses vectors; null without loops. Line numbers are 1-based lines of `assembly`. */
export function findHotLoop(assembly: string): HotLoop | null {
  const lines = assembly.split('\n');
  const addrLine = new Map<string, number>();
  const fnOf: string[] = [];
  let fn = '';
  lines.forEach((line, i) => {
    const head = /^[0-9a-f]+ <([^>]+)>:$/.exec(line);
    if (head?.[1]) fn = head[1];
    fnOf[i] = fn;
    const a = /^\s+([0-9a-f]+):\t/.exec(line);
    if (a?.[1]) addrLine.set(`${fn}:${Number.parseInt(a[1], 16)}`, i);
  });
  const loops: { start: number; end: number }[] = [];
  lines.forEach((line, i) => {
    const m = /^\s+([0-9a-f]+):\tj\w+\s+([0-9a-f]+) </.exec(line);
    if (!m?.[1] || !m[2]) return;
    const from = Number.parseInt(m[1], 16);
    const to = Number.parseInt(m[2], 16);
    if (to > from) return;
    const start = addrLine.get(`${fnOf[i]}:${to}`);
    if (start !== undefined) loops.push({ start, end: i });
  });
  const innermost = loops.filter(
    (l) => !loops.some((o) => o !== l && o.start >= l.start && o.end <= l.end && (o.start > l.start || o.end < l.end)),
  );
  let best: (HotLoop & { len: number }) | null = null;
  for (const l of innermost) {
    let bits: number | null = null;
    for (let i = l.start; i <= l.end; i++) {
      const b = vectorBits(lines[i] as string);
      if (b !== null && (bits === null || b > bits)) bits = b;
    }
    const len = l.end - l.start;
    const better =
      !best || (bits ?? 0) > (best.vector_bits ?? 0) || ((bits ?? 0) === (best.vector_bits ?? 0) && len < best.len);
    if (better)
      best = { start_line: l.start + 1, end_line: l.end + 1, function: fnOf[l.start] ?? '', vector_bits: bits, len };
  }
  if (!best) return null;
  const { len: _len, ...hot } = best;
  return hot;
}
