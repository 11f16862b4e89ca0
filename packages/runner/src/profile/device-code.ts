// The device code of a cuda candidate as people read it: the PTX of its kernels (what ptxas compiled, kept by nvcc)
// or their SASS (cuobjdump -sass, where the runner has it), capped, with the hot loop marked.
import type { HotLoop } from '@kernelforge/sdk';
import { ASSEMBLY_CAP } from './assembly.js';

function cap(text: string): { text: string; truncated: boolean } {
  if (Buffer.byteLength(text) <= ASSEMBLY_CAP) return { text, truncated: false };
  const cut = Buffer.from(text).subarray(0, ASSEMBLY_CAP).toString('utf8');
  return { text: cut.slice(0, cut.lastIndexOf('\n')), truncated: true };
}

/** The PTX's `.entry` functions (kernels), each from its header to its closing brace, in order. */
export function ptxEntries(ptx: string): { name: string; text: string }[] {
  const lines = ptx.split('\n');
  const out: { name: string; text: string }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const head = /^\s*(?:\.visible\s+|\.weak\s+)?\.entry\s+([A-Za-z_$][\w$]*)/.exec(lines[i] as string);
    if (!head) continue;
    let j = i;
    while (j < lines.length && (lines[j] as string).trim() !== '}') j++;
    out.push({ name: head[1] as string, text: lines.slice(i, j + 1).join('\n') });
    i = j;
  }
  return out;
}

/** `.maxntid`/`.reqntid` of each entry (threads per block, x*y*z), from `__launch_bounds__` or `__cluster_dims__`. */
export function ptxLaunchBounds(ptx: string): Map<string, { threads: number; required: boolean }> {
  const out = new Map<string, { threads: number; required: boolean }>();
  for (const e of ptxEntries(ptx)) {
    const m = /^[ \t]*\.(maxntid|reqntid)[ \t]+([\d, \t]{1,60})$/m.exec(e.text);
    if (!m) continue;
    const threads = (m[2] as string)
      .split(',')
      .map((x) => Number(x.trim()))
      .filter((x) => x > 0)
      .reduce((a, b) => a * b, 1);
    out.set(e.name, { threads, required: m[1] === 'reqntid' });
  }
  return out;
}

/** Bytes of the module's `.const` declarations (user `__constant__` memory). */
export function ptxConstantBytes(ptx: string): number {
  let sum = 0;
  // [ \t], never \s, at a line's start: a candidate's inline asm can fill the PTX with blank lines.
  for (const m of ptx.matchAll(
    /^[ \t]*(?:\.visible[ \t]+|\.extern[ \t]+)?\.const[ \t]+(?:\.align[ \t]+\d{1,4}[ \t]+)?\.([busf])(\d{1,3})[ \t]+[\w$]{1,1000}(?:\[(\d{1,12})\])?/gm,
  ))
    sum += (Number(m[2]) / 8) * Number(m[3] ?? 1);
  return sum;
}

/** The kernels' PTX, capped at 64 KiB. */
export function selectPtx(ptx: string): { symbols: string[]; assembly: string; truncated: boolean } {
  const entries = ptxEntries(ptx);
  const c = cap(entries.map((e) => e.text).join('\n\n'));
  return { symbols: entries.map((e) => e.name), assembly: c.text, truncated: c.truncated };
}

/** cuobjdump -sass output split per kernel (`Function : name`), the code lines kept (their encodings left out). */
/** The harness's own kernels in a candidate's worker binary (c/worker_cuda.cu: kf_busy keeps the device busy before
    each timed call). Never the candidate's: on an H200 the SASS facts named kf_busy's wait loop as ReLU's hot loop. */
export const HARNESS_KERNELS: readonly string[] = ['_Z7kf_busyx'];

export function selectSass(
  dump: string,
  exclude: readonly string[] = HARNESS_KERNELS,
): { symbols: string[]; assembly: string; truncated: boolean } {
  const fns: { name: string; lines: string[] }[] = [];
  let cur: { name: string; lines: string[] } | null = null;
  for (const line of dump.split('\n')) {
    const head = /^\s*Function\s*:\s*(\S+)/.exec(line);
    if (head) {
      cur = { name: head[1] as string, lines: [`Function : ${head[1]}`] };
      fns.push(cur);
      continue;
    }
    if (!cur) continue;
    // `        /*0070*/                   ISETP.GE.U32.AND P0, PT, R0, UR6, PT ;  /* 0x... */`
    const code = /^\s*\/\*([0-9a-f]{4,})\*\/\s+(.*?)\s*(?:\/\*\s*0x[0-9a-f]+\s*\*\/)?\s*$/.exec(line);
    if (code) cur.lines.push(`        /*${code[1]}*/ ${code[2]}`);
    else if (/^\s*\.L_x_\d+:/.test(line)) cur.lines.push(line.trim());
  }
  const own = fns.filter((f) => !exclude.includes(f.name));
  const c = cap(own.map((f) => f.lines.join('\n')).join('\n\n'));
  return { symbols: own.map((f) => f.name), assembly: c.text, truncated: c.truncated };
}

/**
 * The innermost backward branch of PTX (`@%p1 bra $L__BB0_2;` after the label `$L__BB0_2:`) or SASS
 * (`@P0 BRA 0x90` or ``BRA `(.L_x_3)`` after its target; SASS's closing `BRA` to itself is no loop); the longest when
 * several are innermost (a main loop is longer than its remainder). vector_bits is null: a GPU loop's width is its
 * warp's, not a register's.
 */
export function findDeviceHotLoop(assembly: string): HotLoop | null {
  const lines = assembly.split('\n');
  const labels = new Map<string, number>();
  const fnOf: string[] = [];
  let fn = '';
  lines.forEach((line, i) => {
    const ptxHead = /^\s*(?:\.visible\s+|\.weak\s+)?\.entry\s+([\w$]+)/.exec(line);
    const sassHead = /^Function : (\S+)/.exec(line);
    if (ptxHead?.[1]) fn = ptxHead[1];
    if (sassHead?.[1]) fn = sassHead[1];
    fnOf[i] = fn;
    const label = /^\s*(\$?L[\w$]*|\.L_x_\d+):\s*$/.exec(line);
    if (label?.[1]) labels.set(`${fn}:${label[1]}`, i);
    const addr = /^\s*\/\*([0-9a-f]{4,})\*\//.exec(line);
    if (addr?.[1]) labels.set(`${fn}:0x${Number.parseInt(addr[1], 16).toString(16)}`, i);
  });
  const loops: { start: number; end: number }[] = [];
  lines.forEach((line, i) => {
    const ptx = /\bbra(?:\.uni)?\s+(\$?L[\w$]*)\s*;/.exec(line);
    const sass = /\bBRA(?:\.\w+)*\s+(?:`\((\.L_x_\d+)\)|(0x[0-9a-f]+))/.exec(line);
    const target = ptx?.[1] ?? sass?.[1] ?? (sass?.[2] ? `0x${Number.parseInt(sass[2], 16).toString(16)}` : null);
    if (!target) return;
    const start = labels.get(`${fnOf[i]}:${target}`);
    if (start !== undefined && start < i) loops.push({ start, end: i });
  });
  const innermost = loops.filter(
    (l) => !loops.some((o) => o !== l && o.start >= l.start && o.end <= l.end && (o.start > l.start || o.end < l.end)),
  );
  let best: { start: number; end: number } | null = null;
  for (const l of innermost) if (!best || l.end - l.start > best.end - best.start) best = l;
  if (!best) return null;
  return { start_line: best.start + 1, end_line: best.end + 1, function: fnOf[best.start] ?? '', vector_bits: null };
}
