// Custom problems have no tuner folder: the tuner varies pragmas on the user's reference and, when its outer
// loop is plainly safe to split across threads, an OpenMP pragma on that loop. Anything else needs an LLM agent.
import type { Problem, SignatureArg } from '@kernelforge/sdk';
import type { ParamSpec, Variant } from './space.js';

export interface CustomPlan {
  variant: Variant;
  /** Why the outer loop is (not) parallelised, for the explanation. */
  parallel: string;
}

const TYPE = String.raw`(?:const\s+)?(?:unsigned\s+|signed\s+)?(?:float|double|int|long(?:\s+long)?|short|char|size_t|ptrdiff_t|u?int(?:8|16|32|64)_t)\b\s*\**`;
const MATH =
  /^(?:f?abs[fl]?|fm(?:in|ax)[fl]?|sqrt[fl]?|cbrt[fl]?|exp2?[fl]?|expm1[fl]?|log(?:2|10|1p)?[fl]?|pow[fl]?|(?:a?(?:sin|cos|tan)h?)[fl]?|atan2[fl]?|erfc?[fl]?|floor[fl]?|ceil[fl]?|round[fl]?|trunc[fl]?|fma[fl]?|fmod[fl]?|hypot[fl]?|copysign[fl]?)$/;
const KEYWORDS = new Set(['for', 'if', 'while', 'switch', 'sizeof', 'return']);

function stripComments(src: string): string {
  return src.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/\/\/[^\n]*/g, ' ');
}

/** Index just past the bracket that closes the one at `open`. */
function closing(src: string, open: number, o = '{', c = '}'): number {
  let depth = 0;
  for (let i = open; i < src.length; i++) {
    if (src[i] === o) depth++;
    else if (src[i] === c && --depth === 0) return i + 1;
  }
  return -1;
}

interface Found {
  name: string;
  /** Offsets in the original source. */
  bodyOpen: number;
  bodyClose: number;
}

/** The reference's entry: `solution`, else `reference`, else the last void function taking as many arguments as the signature. */
export function findEntry(src: string, signature: SignatureArg[]): Found | null {
  const re = /\bvoid\s+([A-Za-z_]\w*)\s*\(([^)]*)\)\s*\{/g;
  const all: Found[] = [];
  for (let m = re.exec(src); m; m = re.exec(src)) {
    const args = (m[2] ?? '').split(',').filter((a) => a.trim() !== '' && a.trim() !== 'void');
    const bodyOpen = m.index + m[0].length - 1;
    const bodyClose = closing(src, bodyOpen);
    if (bodyClose > 0 && args.length === signature.length) all.push({ name: m[1] ?? '', bodyOpen, bodyClose });
  }
  return (
    all.find((f) => f.name === 'solution') ?? all.find((f) => f.name === 'reference') ?? all[all.length - 1] ?? null
  );
}

/** The single top-level `for` of the body, if its iterations are plainly independent; else why not. */
export function outerLoop(body: string, signature: SignatureArg[]): { at: number } | { why: string } {
  const code = stripComments(body);
  const loops: number[] = [];
  let depth = 0;
  for (let i = 0; i < code.length; i++) {
    const ch = code[i];
    if (ch === '{') depth++;
    else if (ch === '}') depth--;
    else if (depth === 1 && /\b(?:for|while|do)\b/y.test(code.slice(i, i + 6)) && !/\w/.test(code[i - 1] ?? ' ')) {
      loops.push(i);
      const end = skipStatement(code, i);
      if (end < 0) return { why: 'its loops could not be read' };
      i = end - 1;
    }
  }
  if (loops.length !== 1)
    return { why: loops.length === 0 ? 'it has no outer loop' : 'it has several outer loops in sequence' };
  const at = loops[0] as number;
  const head =
    /^for\s*\(\s*(?:(?:int|long|int64_t|int32_t|size_t|ptrdiff_t)\s+)?([A-Za-z_]\w*)\s*=[^;]*;\s*\1\s*<=?[^;]*;\s*(?:\1\s*\+\+|\+\+\s*\1|\1\s*\+=\s*1)\s*\)/.exec(
      code.slice(at),
    );
  if (!head) return { why: 'its outer loop is not a plain counted loop (for (i = a; i < b; i++))' };
  const v = head[1] as string;
  const loopBody = code.slice(at + head[0].length, skipStatement(code, at));
  if (/\b(?:break|return|goto|static|volatile|asm|printf|malloc|free)\b/.test(loopBody))
    return { why: 'its outer loop body breaks out, returns, allocates or prints' };
  for (const m of loopBody.matchAll(/\b([A-Za-z_]\w*)\s*\(/g)) {
    const name = m[1] as string;
    if (!KEYWORDS.has(name) && !MATH.test(name) && !new RegExp(`\\(\\s*${name}\\s*\\)`).test(loopBody))
      return { why: `its outer loop calls ${name}(), which might share state` };
  }
  // Scalars the body may write: declared inside it (its own locals and inner loop counters).
  const locals = new Set<string>();
  for (const m of loopBody.matchAll(new RegExp(`(?:^|[;{(]\\s*)${TYPE}\\s*([^;]+)`, 'g'))) {
    for (const part of (m[1] ?? '').split(',')) {
      const id = /^\s*\**\s*([A-Za-z_]\w*)/.exec(part)?.[1];
      if (id) locals.add(id);
    }
  }
  const outs = new Set(signature.filter((a) => a.role === 'out' || a.role === 'inout').map((a) => a.name));
  const subscripts = new Map<string, Set<string>>();
  for (const m of loopBody.matchAll(/\b([A-Za-z_]\w*)\s*\[([^\]]*)\]/g)) {
    const name = m[1] as string;
    if (!outs.has(name)) continue;
    const set = subscripts.get(name) ?? new Set<string>();
    set.add((m[2] ?? '').replace(/\s+/g, ''));
    subscripts.set(name, set);
  }
  // Every write: x[..] op=, x op=, x++ / ++x.
  const writes = [
    ...loopBody.matchAll(
      /([A-Za-z_]\w*(?:\s*\[[^\]]*\])*|\*\s*[A-Za-z_]\w*)\s*(?:[-+*/%&|^]|<<|>>)?=(?!=)|([A-Za-z_]\w*)\s*(?:\+\+|--)|(?:\+\+|--)\s*([A-Za-z_]\w*)/g,
    ),
  ];
  for (const w of writes) {
    const target = (w[1] ?? w[2] ?? w[3] ?? '').replace(/\s+/g, '');
    if (target.startsWith('*')) return { why: 'its outer loop writes through a pointer' };
    const name = /^[A-Za-z_]\w*/.exec(target)?.[0] ?? '';
    if (/\[/.test(target)) {
      if (locals.has(name)) continue;
      if (!outs.has(name)) return { why: `its outer loop writes ${name}[], which is not an output` };
      const subs = subscripts.get(name) ?? new Set<string>();
      const sub = [...subs][0] ?? '';
      const id = `(?:${v}|\\(${v}\\))`;
      const injective =
        new RegExp(`^(?:${id}|${id}\\*[\\w()]+(?:\\+.+)?|[\\w()]+\\*${id}(?:\\+.+)?)$`).test(sub) &&
        !new RegExp(`\\b${v}\\b`).test(sub.replace(new RegExp(`^${id}`), '').replace(new RegExp(`\\*${id}`), ''));
      if (subs.size !== 1 || !injective)
        return { why: `its outer loop touches ${name}[] at more than one index pattern per ${v} (e.g. a running sum)` };
    } else if (name !== v && !locals.has(name))
      return { why: `its outer loop updates ${name}, which lives outside the loop` };
  }
  return { at };
}

/** End offset of the statement starting at `i` (a for/while/do with its body). */
function skipStatement(code: string, i: number): number {
  let j = i;
  const paren = code.indexOf('(', j);
  if (code.startsWith('do', j)) {
    const open = code.indexOf('{', j);
    const end = closing(code, open);
    return end < 0 ? -1 : code.indexOf(';', end) + 1;
  }
  j = closing(code, paren, '(', ')');
  if (j < 0) return -1;
  while (/\s/.test(code[j] ?? '')) j++;
  if (code[j] === '{') return closing(code, j);
  if (/^(?:for|while)\b/.test(code.slice(j))) return skipStatement(code, j);
  return code.indexOf(';', j) + 1;
}

const COMMON: ParamSpec[] = [
  {
    name: 'UNROLL_LOOPS',
    values: [0, 1],
    start: 1,
    tags: ['unroll', 'flags'],
    about: '#pragma GCC optimize("unroll-loops")',
  },
  {
    name: 'FAST_MATH',
    values: [0, 1],
    start: 0,
    tags: ['flags'],
    about: '#pragma GCC optimize("fast-math") (may change rounding; the runner checks tolerance)',
  },
];
const OMP: ParamSpec[] = [
  {
    name: 'SCHEDULE',
    values: ['static', 'static,1', 'dynamic', 'guided'],
    start: 'static',
    tags: ['schedule'],
    about: 'OpenMP schedule of the outer loop',
    when: { OMP: 1 },
  },
  {
    name: 'THREADS',
    values: [1, 2, 4, 'all'],
    start: 'all',
    tags: ['threads'],
    about: 'OpenMP threads',
    when: { OMP: 1 },
  },
  { name: 'OMP', values: [0, 1], start: 1, tags: ['openmp'], about: 'OpenMP parallel for on the outer loop' },
];

/** A template over the reference: pragmas on top, the entry renamed `solution`, OpenMP on the outer loop if safe. */
export function planCustom(problem: Problem, language: 'c' | 'cpp'): CustomPlan | { why: string } {
  const src = problem.reference_source ?? '';
  if (src.trim() === '') return { why: 'the problem has no reference source' };
  if (/__global__|<<</.test(src)) return { why: 'its reference is CUDA code' };
  const entry = findEntry(src, problem.signature);
  if (!entry)
    return { why: `no function in the reference takes the ${problem.signature.length} arguments of the signature` };
  const body = src.slice(entry.bodyOpen, entry.bodyClose);
  const loop = outerLoop(body, problem.signature);
  // Placeholders go in only where we put them: a `{{` in the user's code becomes `{ {`, the same C.
  const esc = (s: string) => s.replace(/\{\{/g, '{ {');
  let before = src.slice(0, entry.bodyOpen);
  let inner = body;
  if ('at' in loop)
    inner = `${esc(body.slice(0, loop.at))}\n{{#if OMP}}  #pragma omp parallel for schedule({{SCHEDULE}}){{#if THREADS != all}} num_threads({{THREADS}}){{/if}}\n{{/if}}  ${esc(body.slice(loop.at))}`;
  else inner = esc(inner);
  before = esc(before).replace(
    new RegExp(`\\b(?:static\\s+)?(?:inline\\s+)?void\\s+${entry.name}\\s*\\(`),
    `${language === 'cpp' ? 'extern "C" ' : ''}void solution(`,
  );
  const template = [
    '{{#if UNROLL_LOOPS}}#pragma GCC optimize("unroll-loops"){{/if}}',
    '{{#if FAST_MATH}}#pragma GCC optimize("fast-math"){{/if}}',
    before + inner + esc(src.slice(entry.bodyClose)),
  ].join('\n');
  const params = 'at' in loop ? [...OMP.slice(0, 2), ...COMMON, OMP[2] as ParamSpec] : COMMON;
  const variant: Variant = {
    name: 'custom-reference',
    backend: 'cpu',
    language,
    template,
    templateFile: '(built from the reference)',
    about: 'the reference with compiler pragmas' + ('at' in loop ? ' and OpenMP on its outer loop' : ''),
    params,
  };
  return {
    variant,
    parallel:
      'at' in loop ? 'its outer loop looks safe to split across threads' : `its outer loop is left serial: ${loop.why}`,
  };
}
