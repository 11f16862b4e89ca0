// Reads ptxas's resource usage (`nvcc -Xptxas -v`, the same as `--resource-usage`) per kernel. The lines look like
// (CUDA 13, sm_90):
//   ptxas info    : 0 bytes gmem
//   ptxas info    : Compiling entry function '_Z4reluPKfPfl' for 'sm_90'
//   ptxas info    : Function properties for _Z4reluPKfPfl
//       0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
//   ptxas info    : Used 10 registers, used 0 barriers, 1024 bytes smem, 376 bytes cmem[0]
//   ptxas info    : Compile time = 2.372 ms
// Older ptxas and older targets add `N bytes cmem[k]` to the gmem and Used lines, `N+M bytes smem`, `N bytes lmem`;
// device functions get a "Function properties" block and no Used line. Unknown lines are skipped.

export interface PtxasKernel {
  mangled: string;
  arch: string | null;
  registers: number;
  stack_bytes: number;
  spill_store_bytes: number;
  spill_load_bytes: number;
  shared_bytes: number;
  constant_bytes: number | null;
  barriers: number | null;
}

export interface PtxasInfo {
  kernels: PtxasKernel[];
  /** User `__constant__` bytes (the gmem line's cmem[k]), null where ptxas prints none. */
  user_constant_bytes: number | null;
  global_bytes: number | null;
}

const PREFIX = /^ptxas (?:info|warning|error)\s*:\s*/;

function bytes(text: string, what: string): number | null {
  // `1024 bytes smem`, `32+0 bytes smem` (static + reserved, old ptxas)
  const m = new RegExp(`(\\d{1,12})(?:\\+(\\d{1,12}))? bytes ${what}\\b`).exec(text);
  return m ? Number(m[1]) + Number(m[2] ?? 0) : null;
}

function cmemSum(text: string): number | null {
  let sum: number | null = null;
  for (const m of text.matchAll(/(\d{1,12}) bytes cmem\[\d{1,3}\]/g)) sum = (sum ?? 0) + Number(m[1]);
  return sum;
}

/** The kernels in the order ptxas compiled them; a kernel compiled for several targets appears once per target. */
export function parsePtxasInfo(log: string): PtxasInfo {
  const kernels: PtxasKernel[] = [];
  const props = new Map<string, { stack: number; stores: number; loads: number }>();
  let entry: { mangled: string; arch: string | null } | null = null;
  let propsOf: string | null = null;
  let userConstant: number | null = null;
  let global: number | null = null;
  for (const raw of log.split('\n')) {
    const line = raw.trimEnd();
    if (propsOf !== null && /^\s+\d+ bytes stack frame/.test(line)) {
      props.set(propsOf, {
        stack: bytes(line, 'stack frame') ?? 0,
        stores: bytes(line, 'spill stores') ?? 0,
        loads: bytes(line, 'spill loads') ?? 0,
      });
      propsOf = null;
      continue;
    }
    propsOf = null;
    if (!PREFIX.test(line)) continue;
    const body = line.replace(PREFIX, '');
    let m = /^Compiling entry function '([^']+)' for '([^']+)'/.exec(body);
    if (m) {
      entry = { mangled: m[1] as string, arch: m[2] as string };
      continue;
    }
    m = /^Function properties for (\S+)/.exec(body);
    if (m) {
      propsOf = m[1] as string;
      continue;
    }
    if (/^\d+ bytes gmem/.test(body)) {
      global = bytes(body, 'gmem');
      userConstant = cmemSum(body) ?? userConstant;
      continue;
    }
    m = /^Used (\d+) registers/.exec(body);
    if (m && entry) {
      const p = props.get(entry.mangled);
      const barriers = /used (\d+) barriers/.exec(body);
      kernels.push({
        mangled: entry.mangled,
        arch: entry.arch,
        registers: Number(m[1]),
        stack_bytes: p?.stack ?? bytes(body, 'cumulative stack size') ?? bytes(body, 'lmem') ?? 0,
        spill_store_bytes: p?.stores ?? 0,
        spill_load_bytes: p?.loads ?? 0,
        shared_bytes: bytes(body, 'smem') ?? 0,
        constant_bytes: cmemSum(body),
        barriers: barriers ? Number(barriers[1]) : null,
      });
      entry = null;
    }
  }
  return { kernels, user_constant_bytes: userConstant, global_bytes: global };
}

/** The log without ptxas's info lines and their indented continuations (what the compile log showed before). */
export function withoutPtxasInfo(log: string): string {
  const out: string[] = [];
  let inInfo = false;
  for (const line of log.split('\n')) {
    if (/^ptxas info\s*:/.test(line)) {
      inInfo = true;
      continue;
    }
    if (inInfo && /^\s+\d+ bytes stack frame/.test(line)) continue;
    inInfo = false;
    out.push(line);
  }
  return out.join('\n');
}
