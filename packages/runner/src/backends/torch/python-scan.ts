// The static scan of submitted Python (`ModelNew` files): patterns that flag a result for review, never reject it.
// Comments and string literals are not code, except where a string names something to look up dynamically, a
// path (`/proc`), or C++/CUDA source (half precision, calls back into Python, new processes).
import { fStringExpressions, lineIndex, type Statement, statements, type Token, tokenize } from './python-tokens.js';

type Kind =
  | 'fallback'
  | 'device_branch'
  | 'aten'
  | 'concurrency'
  | 'stream'
  | 'patch'
  | 'precision'
  | 'introspection'
  | 'dynamic'
  | 'files'
  | 'environment'
  | 'network';

/** What each kind of finding is, and why it matters; the reason reads `line N: <what> (<detail>): <why>`. */
const REASONS: Record<Kind, [string, string]> = {
  fallback: ['a try/except fallback', 'when the fast path fails, other code (perhaps the reference) runs instead'],
  device_branch: [
    'a path chosen by device or CUDA availability',
    'the path that runs where it is judged may be another (perhaps the reference)',
  ],
  aten: [
    "C++ source calls PyTorch's own operators",
    "the work may be the reference's operators rather than a kernel of its own",
  ],
  concurrency: ['a thread or process is started', 'work may run outside the timed call'],
  stream: ['a CUDA stream or non-blocking copy is used', 'work may run outside the timed call'],
  patch: [
    'a timer, torch function or builtin may be monkeypatched',
    'what the harness measures or compares may change',
  ],
  precision: ['a lower precision is used', 'results may lose accuracy that the tolerance hides'],
  introspection: ['the process is inspected', "the harness's state (inputs, outputs, frames) may be read or changed"],
  dynamic: ['code is run or imported dynamically', 'what it does cannot be scanned'],
  files: ['files outside the module are read', 'data the candidate should not see may be read'],
  environment: ['the environment is read', 'settings the candidate should not see may be read'],
  network: ['the network is used', 'data may come from outside'],
};

/** Rules on a name's resolved dotted path (imports and simple aliases followed), e.g. `torch.cuda.Stream`. */
const PATH_RULES: Array<[RegExp, Kind]> = [
  [
    /^(threading|_thread|multiprocessing|concurrent|subprocess|asyncio|pty|torch\.multiprocessing)(?=\.|$)/,
    'concurrency',
  ],
  [/^os\.(fork|forkpty|system|popen|spawn\w*|exec\w*|posix_spawn\w*|register_at_fork)$/, 'concurrency'],
  [/^torch\.(jit\.(fork|_fork)|futures)(?=\.|$)/, 'concurrency'],
  [/^torch\.(cuda\.)?(Stream|stream|set_stream|ExternalStream|streams)(?=\.|$)/, 'stream'],
  [/(^torch\.cuda\.is_available$|\.is_cuda$)/, 'device_branch'],
  [/^(builtins|unittest\.mock|mock)(?=\.|$)/, 'patch'],
  [/^torch\.library\.(Library|impl|register_kernel|register_fake)$/, 'patch'],
  [/^torch\.(utils\._python_dispatch\.TorchDispatchMode|overrides\.TorchFunctionMode)$/, 'patch'],
  [/\.(half|float16|bfloat16|autocast|float8_\w+|set_float32_matmul_precision|allow_tf32)(?=\.|$)/, 'precision'],
  [/\.(allow_fp16_reduced_precision_reduction|allow_bf16_reduced_precision_reduction)(?=\.|$)/, 'precision'],
  [/^(__main__|ctypes|_ctypes|cffi)(?=\.|$)/, 'introspection'],
  [
    /^sys\.(modules|_getframe|_current_frames|settrace|setprofile|addaudithook|meta_path|path_hooks)(?=\.|$)/,
    'introspection',
  ],
  [/^inspect\.(currentframe|stack|getouterframes|getinnerframes|trace|getmembers|getclosurevars)$/, 'introspection'],
  [/^gc\.(get_objects|get_referrers|get_referents)$/, 'introspection'],
  // Writing to a descriptor (the worker's socket is fd 11), or asking a socket what it has queued.
  [/^os\.(write|writev|pwrite|pwritev|sendfile|dup|dup2)$/, 'introspection'],
  [/^(fcntl|termios|operator\.(attrgetter|methodcaller))(?=\.|$)/, 'introspection'],
  [/^traceback\.(extract_stack|walk_stack|print_stack)$/, 'introspection'],
  [
    /\.(f_back|f_globals|f_locals|f_builtins|f_code|tb_frame|gi_frame|cr_frame|__globals__|__subclasses__|__dict__|__closure__|cell_contents|__code__|__defaults__|__kwdefaults__|__getattribute__|__setattr__|__delattr__)(?=\.|$)/,
    'introspection',
  ],
  [/^(importlib|runpy|marshal|pickle|dill|cloudpickle|zipimport)(?=\.|$)/, 'dynamic'],
  [/^types\.(CodeType|FunctionType)$/, 'dynamic'],
  [/^os\.(open|listdir|scandir|walk|readlink|fdopen)$/, 'files'],
  [/^(glob|mmap|shutil|io\.open)(?=\.|$)/, 'files'],
  [/^(torch|numpy)\.(load|fromfile|memmap)$/, 'files'],
  [/\.(read_text|read_bytes)$/, 'files'],
  [/^os\.(environ|environb|getenv|getenvb|putenv|unsetenv)(?=\.|$)/, 'environment'],
  [/^(socket|ssl|urllib|http|requests|ftplib|smtplib)(?=\.|$)/, 'network'],
];

const GLOBAL_PATH_RULES = PATH_RULES.map(([re, kind]) => [new RegExp(re.source, 'g'), kind] as const);

/** Built-in names that matter when used bare (not as an attribute, not rebound by an import). */
const BUILTINS: Record<string, Kind> = {
  exec: 'dynamic',
  eval: 'dynamic',
  compile: 'dynamic',
  __import__: 'dynamic',
  breakpoint: 'dynamic',
  open: 'files',
  __builtins__: 'patch',
  non_blocking: 'stream',
  // Triton: tl.dot(a, b, allow_tf32=True) (input_precision="tf32" is found by its string).
  allow_tf32: 'precision',
  __torch_function__: 'patch',
  __torch_dispatch__: 'patch',
  // A namespace as a dict: the worker's globals, a module's, an object's (issue 31).
  vars: 'introspection',
  globals: 'introspection',
  locals: 'introspection',
};

/** Flagged even as a keyword argument or assignment target (`non_blocking=True`). */
const ALWAYS = new Set(['non_blocking', 'allow_tf32', '__builtins__', '__torch_function__', '__torch_dispatch__']);

/** A string literal that is exactly one of these is a name looked up dynamically (`getattr(sys, "_getframe")`). */
const NAME_STRINGS: Record<string, Kind> = {
  ...Object.fromEntries(['exec', 'eval', 'compile', '__import__', 'importlib'].map((n) => [n, 'dynamic' as Kind])),
  ...Object.fromEntries(
    [
      '_getframe',
      'currentframe',
      'f_back',
      'f_globals',
      'f_locals',
      'get_objects',
      'get_referrers',
      'get_referents',
      '__main__',
      'modules',
      '_current_frames',
      '__dict__',
      '__closure__',
      'cell_contents',
      '__code__',
      'pythonapi',
    ].map((n) => [n, 'introspection' as Kind]),
  ),
  ...Object.fromEntries(
    ['half', 'float16', 'bfloat16', 'autocast', 'tf32', 'tf32x3'].map((n) => [n, 'precision' as Kind]),
  ),
  ...Object.fromEntries(
    ['__builtins__', 'builtins', 'perf_counter', 'perf_counter_ns', 'monotonic', 'monotonic_ns', 'process_time'].map(
      (n) => [n, 'patch' as Kind],
    ),
  ),
  ...Object.fromEntries(['threading', 'multiprocessing', 'subprocess', 'fork'].map((n) => [n, 'concurrency' as Kind])),
  environ: 'environment',
};

/** Paths in any string literal. */
const PATH_STRING = /(^|[^\w.])\/(proc|dev\/(mem|shm|fd)|sys\/kernel)(\/|\b|$)/;

/** In a string holding C++/CUDA source (never its threads: an OpenMP loop inside the call is honest; nor the
    current stream, on which a kernel should launch). */
const CPP_SOURCE = /#\s*include|__global__|torch::|at::Tensor|PYBIND11_MODULE/;
/** PyTorch's functions a C++ answer calls for plumbing, not for the problem's work. */
const ATEN_PLUMBING =
  'empty|empty_like|empty_strided|zeros|zeros_like|ones|ones_like|full|full_like|from_blob|Tensor|TensorOptions|' +
  'ScalarType|Device|IntArrayRef|Scalar|cuda|indexing|nn|jit|k[A-Z]\\w*|Dtype|Layout|MemoryFormat|autograd|NoGradGuard|' +
  'AutoDispatchBelowAutograd|InferenceMode|ArrayRef|OptionalDeviceGuard|DeviceGuard|detail|native|globalContext';
const CPP_RULES: Array<[RegExp, Kind]> = [
  [
    /\b(__half2?|__nv_bfloat162?|half2|(?:at|c10)::(?:Half|BFloat16|kHalf|kBFloat16)|torch::k(?:Half|Float16|BFloat16)|__float2half\w*|__float2bfloat16\w*|__nv_fp8\w*|wmma::precision::tf32|__float_to_tf32|cvt\.rna\.tf32\.f32|CUBLAS_TF32_TENSOR_OP_MATH|CUBLAS_COMPUTE_32F_FAST_\w+|allow_tf32)\b/,
    'precision',
  ],
  // Streams of its own (work there may go on after the call returns; the harness synchronizes the whole device,
  // so this is for reviewers) and host callbacks queued on a stream.
  [
    /\b(cudaStreamCreate\w*|getStreamFromPool|setCurrentCUDAStream|cudaStreamNonBlocking|cudaLaunchHostFunc|cudaStreamAddCallback|CUDAStreamGuard)\b/,
    'stream',
  ],
  // A kernel that calls back into ATen's own operators (at::matmul, torch::gelu, x.mm(...)) may be the reference
  // again in C++.
  [new RegExp(`\\b((?:at|torch)::(?!(?:${ATEN_PLUMBING})\\b)[a-z_]\\w*)\\s*\\(`), 'aten'],
  [
    /(\bpy::module_?::import|\bPyImport_\w+|\bPyRun_\w+|\bPyEval_\w+|\bPySys_\w+|\bpy::eval|\bpy::exec)\b/,
    'introspection',
  ],
  [/\b(fork|vfork|popen|system|execv\w*|execl\w*|posix_spawn\w*)\s*\(/, 'concurrency'],
];

/** Built-ins that look an attribute up by a name given as a value. */
const ATTR_BUILTINS = new Set(['getattr', 'setattr', 'delattr', 'hasattr']);

/** The tokens inside the parentheses that open at `open` (an index into `ts`), to the matching close. */
function callArgs(ts: readonly Token[], open: number): Token[] {
  let depth = 0;
  for (let k = open; k < ts.length; k++) {
    const v = (ts[k] as Token).value;
    if ((ts[k] as Token).kind === 'op' && '([{'.includes(v)) depth++;
    if ((ts[k] as Token).kind === 'op' && ')]}'.includes(v) && --depth === 0) return ts.slice(open + 1, k);
  }
  return ts.slice(open + 1);
}

/** Module roots whose attributes no honest submission assigns, imported or not. */
const KNOWN_MODULES = new Set(['time', 'torch', 'builtins', 'sys', 'os', 'gc', 'math', 'numpy', 'np', 'nn', 'F']);

interface Finding {
  kind: Kind;
  detail: string;
  at: number;
}

/**
 * Reasons to flag a Python submission for review: one short sentence per kind of finding and what was found,
 * naming the line(s). Empty when nothing was found. Pure and synchronous.
 */
export function pythonReviewReasons(source: string): string[] {
  const lineOf = lineIndex(source);
  const tokens = tokenize(source);
  const columnOf = (at: number) => {
    let col = 0;
    for (let i = source.lastIndexOf('\n', at - 1) + 1; i < at; i++) col = source[i] === '\t' ? (col + 8) & ~7 : col + 1;
    return col;
  };
  const stmts = statements(tokens, columnOf);
  const aliases = importAliases(stmts);
  const findings: Finding[] = [];
  scanNames(tokens, aliases, findings);
  for (const t of tokens) if (t.kind === 'string') scanString(t, source, aliases, findings);
  scanStatements(stmts, aliases, findings);
  return report(findings, lineOf);
}

/** Local names bound by imports (`import a.b as c`, `from a import b as c`) and by `x = <imported dotted name>`. */
function importAliases(stmts: readonly Statement[]): Map<string, string> {
  const map = new Map<string, string>();
  for (const { tokens: ts } of stmts) {
    const v = ts.map((t) => t.value);
    if (v[0] === 'import') {
      for (const part of splitTop(ts.slice(1), ',')) {
        const asAt = part.findIndex((t) => t.value === 'as');
        const dotted = dottedOf(asAt < 0 ? part : part.slice(0, asAt));
        if (!dotted) continue;
        if (asAt >= 0 && part[asAt + 1]) map.set((part[asAt + 1] as Token).value, dotted);
        else map.set(dotted.split('.')[0] as string, dotted.split('.')[0] as string);
      }
    } else if (v[0] === 'from') {
      const importAt = v.indexOf('import');
      const base = dottedOf(ts.slice(1, importAt));
      if (!base || importAt < 0) continue;
      const list = ts.slice(importAt + 1);
      const bare = list[0]?.value === '(' ? list.slice(1, -1) : list;
      for (const part of splitTop(bare, ',')) {
        const names = part.filter((t) => t.kind === 'name');
        const name = names[0]?.value;
        if (!name) continue;
        map.set(names[1] && names[1].value !== name ? (names[2]?.value ?? name) : name, `${base}.${name}`);
      }
    } else if (ts.length >= 3 && ts[0]?.kind === 'name' && v[1] === '=') {
      const dotted = dottedOf(ts.slice(2));
      const root = dotted?.split('.')[0];
      if (dotted && root && (map.has(root) || KNOWN_MODULES.has(root))) map.set(v[0] as string, resolve(dotted, map));
    }
  }
  return map;
}

/** `a.b.c` when the tokens are exactly a dotted name. */
function dottedOf(ts: readonly Token[]): string | undefined {
  if (ts.length === 0 || ts.length % 2 === 0) return undefined;
  for (const [k, t] of ts.entries()) if (k % 2 === 0 ? t.kind !== 'name' : t.value !== '.') return undefined;
  return ts.map((t) => t.value).join('');
}

function resolve(dotted: string, aliases: ReadonlyMap<string, string>): string {
  const dot = dotted.indexOf('.');
  const root = dot < 0 ? dotted : dotted.slice(0, dot);
  const bound = aliases.get(root);
  return bound === undefined ? dotted : bound + (dot < 0 ? '' : dotted.slice(dot));
}

function splitTop(ts: readonly Token[], sep: string): Token[][] {
  const out: Token[][] = [[]];
  let depth = 0;
  for (const t of ts) {
    if (t.kind === 'op' && '([{'.includes(t.value)) depth++;
    if (t.kind === 'op' && ')]}'.includes(t.value)) depth--;
    if (depth === 0 && t.value === sep) out.push([]);
    else out[out.length - 1]?.push(t);
  }
  return out.filter((p) => p.length > 0);
}

/** Every dotted chain of names (`a.b.c`; `?.b` after a call or subscript), resolved, against PATH_RULES and bare
    built-ins. */
function scanNames(tokens: readonly Token[], aliases: ReadonlyMap<string, string>, out: Finding[]): void {
  let chain = '';
  let chainAt = 0;
  const flush = () => {
    if (!chain) return;
    const path = chain.startsWith('?') ? chain : resolve(chain, aliases);
    for (const [re, kind] of GLOBAL_PATH_RULES) {
      for (const m of path.matchAll(re)) out.push({ kind, detail: detailOf(path, m), at: chainAt });
    }
    chain = '';
  };
  for (const [k, t] of tokens.entries()) {
    const prev = tokens[k - 1];
    if (t.kind === 'name' && prev?.value === '.') {
      const before = tokens[k - 2];
      if (!chain) {
        chain = before?.kind === 'name' ? before.value : '?';
        chainAt = before?.at ?? t.at;
      }
      chain += `.${t.value}`;
      continue;
    }
    if (t.kind === 'op' && t.value === '.' && tokens[k + 1]?.kind === 'name') {
      if (!chain && prev?.kind === 'name') {
        chain = prev.value;
        chainAt = prev.at;
      }
      continue;
    }
    flush();
    if (t.kind !== 'name') continue;
    const next = tokens[k + 1];
    if (next?.value === '.') continue;
    // A bare name: resolved through the imports (`from os import fork`), or a built-in.
    const kind = BUILTINS[t.value];
    if (aliases.has(t.value)) {
      chain = t.value;
      chainAt = t.at;
      flush();
    } else if (
      kind &&
      (ALWAYS.has(t.value) || (prev?.value !== 'def' && prev?.value !== 'class' && next?.value !== '='))
    ) {
      if (t.value !== 'open' || next?.value === '(') out.push({ kind, detail: t.value, at: t.at });
    }
  }
  flush();
}

/** The part of a path a rule matched, as the reason's detail: `torch.cuda.Stream`, `x.half`. */
function detailOf(path: string, m: RegExpMatchArray): string {
  const index = m.index ?? 0;
  const end = index + m[0].length;
  const start = index === 0 ? 0 : path.lastIndexOf('.', index - 1) + 1;
  return path.slice(start, end).replace(/^\?\./, '.');
}

function scanString(t: Token, source: string, aliases: ReadonlyMap<string, string>, out: Finding[]): void {
  const body = t.body ?? '';
  const bodyAt = t.bodyAt ?? t.at;
  const named = NAME_STRINGS[body.trim()];
  if (named && !(body === '__main__' && isMainIdiom(source, t)))
    out.push({ kind: named, detail: `"${body}"`, at: t.at });
  const p = PATH_STRING.exec(body);
  if (p) out.push({ kind: 'files', detail: `/${p[2]}`, at: bodyAt + p.index + (p[1] as string).length });
  if (CPP_SOURCE.test(body)) {
    const code = body.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, (c) => c.replace(/[^\n]/g, ' '));
    for (const [re, kind] of CPP_RULES) {
      const m = re.exec(code);
      if (m) out.push({ kind, detail: `${m[1]} in C++ source`, at: bodyAt + m.index });
    }
  }
  if (t.prefix?.includes('f')) {
    for (const [from, to] of fStringExpressions(t)) scanNames(tokenize(source, from, to), aliases, out);
  }
}

/** `if __name__ == "__main__":` is not a reach for `__main__`. */
function isMainIdiom(source: string, t: Token): boolean {
  const before = source.slice(Math.max(0, t.at - 40), t.at);
  return /__name__\s*==\s*$/.test(before) || /^['"]__main__['"]\s*==\s*__name__/.test(source.slice(t.at, t.at + 40));
}

/** Statement-level findings: excepts that do not re-raise, attribute assignments and setattr on modules. */
function scanStatements(stmts: readonly Statement[], aliases: ReadonlyMap<string, string>, out: Finding[]): void {
  const isModule = (dotted: string) => {
    const root = dotted.split('.')[0] as string;
    return aliases.has(root) || KNOWN_MODULES.has(root);
  };
  for (const [k, s] of stmts.entries()) {
    const first = s.tokens[0] as Token;
    if (first.value === 'except') {
      const body: Statement[] = [];
      for (const b of stmts.slice(k + 1)) {
        if (b.indent <= s.indent) break;
        body.push(b);
      }
      const top = body.filter((b) => b.indent === body[0]?.indent);
      const reraises =
        top.at(-1)?.tokens[0]?.value === 'raise' &&
        !body.some((b) => b.tokens[0]?.value === 'return' || b.tokens.some((t) => t.value === 'yield'));
      if (!reraises) out.push({ kind: 'fallback', detail: 'an except that does not re-raise', at: first.at });
      continue;
    }
    if (first.value === 'with' && s.tokens.some((t) => t.value === 'suppress')) {
      out.push({ kind: 'fallback', detail: 'contextlib.suppress', at: first.at });
    }
    // getattr/setattr/delattr/hasattr whose name is not a plain string literal: a name built at run time, which
    // this scan cannot follow (issue 31: `getattr(sys, "mod" + "ules")["__" + "main__"]` reached the worker).
    for (const [j, t] of s.tokens.entries()) {
      if (!ATTR_BUILTINS.has(t.value) || s.tokens[j + 1]?.value !== '(' || s.tokens[j - 1]?.value === '.') continue;
      const args = splitTop(callArgs(s.tokens, j + 1), ',');
      const name = args[1];
      const literal = name?.length === 1 && name[0]?.kind === 'string' && !name[0].prefix?.toLowerCase().includes('f');
      if (name && !literal)
        out.push({ kind: 'introspection', detail: `${t.value} with a name built at run time`, at: t.at });
    }
    // `setattr(<module>, ...)` anywhere in the statement.
    for (const [j, t] of s.tokens.entries()) {
      if (t.value !== 'setattr' || s.tokens[j + 1]?.value !== '(' || s.tokens[j - 1]?.value === '.') continue;
      const arg = s.tokens.slice(j + 2);
      const end = arg.findIndex((a) => a.value === ',' || a.value === ')');
      const target = dottedOf(end < 0 ? arg : arg.slice(0, end));
      if (target && isModule(target)) out.push({ kind: 'patch', detail: `setattr(${target}, ...)`, at: t.at });
    }
    // Attribute assignments (`time.perf_counter = ...`, `torch.Tensor.__eq__ += ...`): every target, chained or not.
    const parts = splitTop(s.tokens, '=');
    const assign = s.tokens.find((t) => t.kind === 'op' && /^([-+*/%&|^@]|\*\*|\/\/|<<|>>)=$/.test(t.value));
    const targets = parts.length > 1 ? parts.slice(0, -1) : assign ? [s.tokens.slice(0, s.tokens.indexOf(assign))] : [];
    for (const target of targets.flatMap((p) => splitTop(p, ','))) {
      const dotted = dottedOf(target);
      if (!dotted?.includes('.') || !isModule(dotted)) continue;
      const path = resolve(dotted, aliases);
      // torch.backends switches (cudnn.benchmark) are settings; their precision ones are caught as precision.
      if (path.startsWith('torch.backends.')) continue;
      out.push({ kind: 'patch', detail: `${path} =`, at: (target[0] as Token).at });
    }
  }
}

/** One sentence per kind, at its lines, naming what was found (the first few details), in line order. */
function report(findings: readonly Finding[], lineOf: (at: number) => number): string[] {
  const groups = new Map<Kind, { details: string[]; lines: number[] }>();
  for (const f of findings) {
    const g = groups.get(f.kind) ?? { details: [], lines: [] };
    const line = lineOf(f.at);
    if (!g.lines.includes(line)) g.lines.push(line);
    if (!g.details.includes(f.detail)) g.details.push(f.detail);
    groups.set(f.kind, g);
  }
  const list = (items: readonly (string | number)[], max: number) => {
    if (items.length === 1) return String(items[0]);
    if (items.length <= max + 1) return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
    return `${items.slice(0, max).join(', ')} and ${items.length - max} more`;
  };
  return [...groups.entries()]
    .map(([kind, g]) => ({ kind, details: g.details, lines: g.lines.sort((a, b) => a - b) }))
    .sort((a, b) => (a.lines[0] as number) - (b.lines[0] as number))
    .map(({ kind, details, lines }) => {
      const [what, why] = REASONS[kind];
      return `line${lines.length > 1 ? 's' : ''} ${list(lines, 5)}: ${what} (${list(details, 3)}): ${why}`;
    });
}
