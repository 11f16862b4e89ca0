// Finds the elementwise tail of a forward (e.g. GELU then a scale after a Linear) that one C++ loop can compute.
import type { ForwardSource } from './forward.js';

/** A scalar operand: a number literal or a module attribute read at run time (`float(self.scale)`). */
type Scalar = { literal: string } | { attr: string };

/** One elementwise step, in C++ over `v` (float); `s[i]` are scalars, `t[i]` per-channel tensor operands. */
export interface TailOp {
  /** What the reference wrote, for the explanation. */
  wrote: string;
  cpp: string;
}

export interface Tail {
  /** Statements kept in PyTorch, as the reference writes them. */
  prefix: string[];
  /** The variable the tail starts from. */
  input: string;
  ops: TailOp[];
  scalars: Scalar[];
  /** Module attributes used as per-channel tensors (e.g. a bias of shape (C, 1, 1)). */
  tensors: string[];
  /** The tail's input comes from a module call (`self.linear(x)`): a fresh tensor the tail may overwrite. */
  producerIsModule: boolean;
}

const ID = '[A-Za-z_]\\w*';
const NUM = '-?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][-+]?\\d+)?';
const F = '(?:torch\\.nn\\.functional|F|nn\\.functional)';

/** Module attributes the reference makes tensors (nn.Parameter, torch.* or a registered buffer). */
function tensorAttrs(source: string): Set<string> {
  const out = new Set<string>();
  for (const m of source.matchAll(/self\.(\w+)\s*=\s*(?:nn\.Parameter|torch\.nn\.Parameter|torch\.)/g))
    if (m[1]) out.add(m[1]);
  for (const m of source.matchAll(/register_buffer\(\s*["'](\w+)["']/g)) if (m[1]) out.add(m[1]);
  return out;
}

interface Ctx {
  scalars: Scalar[];
  tensors: string[];
  tensorAttrs: Set<string>;
}

/** A scalar operand's C++ name, or a per-channel tensor operand's; null when the term is neither. */
function operand(term: string, ctx: Ctx): { cpp: string; tensor: boolean } | null {
  const t = term.trim();
  if (new RegExp(`^${NUM}$`).test(t)) return { cpp: `((float)(${t}))`, tensor: false };
  const a = new RegExp(`^self\\.(${ID})$`).exec(t)?.[1];
  if (!a) return null;
  if (ctx.tensorAttrs.has(a)) {
    ctx.tensors.push(a);
    return { cpp: `t${ctx.tensors.length - 1}[c]`, tensor: true };
  }
  ctx.scalars.push({ attr: a });
  return { cpp: `s[${ctx.scalars.length - 1}]`, tensor: false };
}

type Rule = [RegExp, (m: RegExpExecArray, ctx: Ctx) => { input: string; cpp: string } | null];

const unary = (input: string | undefined, cpp: string) => (input ? { input, cpp } : null);
const GELU_TANH = 'v = 0.5f * v * (1.0f + kf_tanh(0.7978845608028654f * (v + 0.044715f * v * v * v)));';
// sigmoid(v) = (1 + tanh(v / 2)) / 2, through the vectorisable tanh.
const SIGMOID = 'v = 0.5f + 0.5f * kf_tanh(0.5f * v);';
const SWISH = 'v = v * (0.5f + 0.5f * kf_tanh(0.5f * v));';

/** The elementwise operations the generator knows, as the reference may write them. */
const RULES: Rule[] = [
  [new RegExp(`^(?:torch\\.relu|${F}\\.relu)\\((${ID})\\)$`), (m) => unary(m[1], 'v = v > 0.0f ? v : 0.0f;')],
  [/^(\w+)\.relu\(\)$/, (m) => unary(m[1], 'v = v > 0.0f ? v : 0.0f;')],
  [new RegExp(`^${F}\\.gelu\\((${ID}), approximate ?= ?["']tanh["']\\)$`), (m) => unary(m[1], GELU_TANH)],
  [
    new RegExp(`^${F}\\.gelu\\((${ID})\\)$`),
    (m) => unary(m[1], 'v = 0.5f * v * (1.0f + std::erf(v * 0.7071067811865476f));'),
  ],
  [new RegExp(`^(?:torch\\.sigmoid|${F}\\.sigmoid)\\((${ID})\\)$`), (m) => unary(m[1], SIGMOID)],
  [/^(\w+)\.sigmoid\(\)$/, (m) => unary(m[1], SIGMOID)],
  [new RegExp(`^(?:torch\\.tanh|${F}\\.tanh)\\((${ID})\\)$`), (m) => unary(m[1], 'v = kf_tanh(v);')],
  [/^(\w+)\.tanh\(\)$/, (m) => unary(m[1], 'v = kf_tanh(v);')],
  [
    new RegExp(`^(${ID}) \\* (?:torch\\.sigmoid|${F}\\.sigmoid)\\((${ID})\\)$`),
    (m) => (m[1] === m[2] ? unary(m[1], SWISH) : null),
  ],
  [new RegExp(`^${F}\\.silu\\((${ID})\\)$`), (m) => unary(m[1], SWISH)],
  [
    new RegExp(`^${F}\\.hardsigmoid\\((${ID})\\)$`),
    (m) => unary(m[1], 'v = std::min(std::max(v / 6.0f + 0.5f, 0.0f), 1.0f);'),
  ],
  [
    new RegExp(`^${F}\\.leaky_relu\\((${ID})(?:, (?:negative_slope ?= ?)?([^,()]+))?\\)$`),
    (m, ctx) => {
      const slope = m[2] ? operand(m[2], ctx) : { cpp: '0.01f', tensor: false };
      return !slope || slope.tensor ? null : unary(m[1], `v = v >= 0.0f ? v : v * ${slope.cpp};`);
    },
  ],
  [
    new RegExp(`^${F}\\.softplus\\((${ID}), beta ?= ?([^,()]+), threshold ?= ?([^,()]+)\\)$`),
    (m, ctx) => {
      const beta = operand(m[2] as string, ctx);
      const thr = operand(m[3] as string, ctx);
      if (!beta || !thr || beta.tensor || thr.tensor) return null;
      return unary(
        m[1],
        `{ const float bx = v * ${beta.cpp}; v = bx > ${thr.cpp} ? v : std::log1p(std::exp(bx)) / ${beta.cpp}; }`,
      );
    },
  ],
  [
    new RegExp(`^torch\\.clamp\\((${ID}), (?:min ?= ?)?([^,()]+), (?:max ?= ?)?([^,()]+)\\)$`),
    (m, ctx) => {
      const lo = operand(m[2] as string, ctx);
      const hi = operand(m[3] as string, ctx);
      if (!lo || !hi || lo.tensor || hi.tensor) return null;
      return unary(m[1], `v = std::min(std::max(v, ${lo.cpp}), ${hi.cpp});`);
    },
  ],
  // x * s, x + s, x - s, x / s and s * x, s + x: s a number or an attribute (scalar, or a per-channel tensor).
  [
    new RegExp(`^(${ID}) ([-+*/]) (\\S+)$`),
    (m, ctx) => {
      if (m[1]?.startsWith('self')) return null;
      const b = operand(m[3] as string, ctx);
      return b ? unary(m[1], `v = v ${m[2]} ${b.cpp};`) : null;
    },
  ],
  [
    new RegExp(`^(\\S+) ([+*]) (${ID})$`),
    (m, ctx) => {
      if (m[3]?.startsWith('self')) return null;
      const a = operand(m[1] as string, ctx);
      return a ? unary(m[3], `v = ${a.cpp} ${m[2]} v;`) : null;
    },
  ],
];

/** `expr` as one elementwise op on a single variable, or null. */
function matchOp(expr: string, ctx: Ctx): { input: string; op: TailOp } | null {
  const e = expr.trim().replace(/\s+/g, ' ');
  for (const [re, build] of RULES) {
    const m = re.exec(e);
    if (!m) continue;
    const [ns, nt] = [ctx.scalars.length, ctx.tensors.length];
    const r = build(m, ctx);
    if (r) return { input: r.input, op: { wrote: e, cpp: r.cpp } };
    // A rule that read an operand and then failed leaves no operand behind.
    ctx.scalars.length = ns;
    ctx.tensors.length = nt;
  }
  return null;
}

/**
 * The longest run of elementwise statements at the end of forward, on one variable; null when there is none
 * (e.g. the last step combines two tensors, or a reduction).
 */
export function findTail(fwd: ForwardSource, source: string): Tail | null {
  const st = [...fwd.statements];
  const ret = /^return (.+)$/.exec(st[st.length - 1] ?? '');
  if (!ret) return null;
  const attrs = tensorAttrs(source);
  const scratch = (): Ctx => ({ scalars: [], tensors: [], tensorAttrs: attrs });
  const exprs: string[] = [];
  let want: string;
  const last = matchOp(ret[1] as string, scratch());
  if (last) {
    exprs.push(ret[1] as string);
    want = last.input;
  } else if (new RegExp(`^${ID}$`).test((ret[1] as string).trim())) want = (ret[1] as string).trim();
  else return null;
  // Walk back over `v = op(w)` statements that feed the tail.
  let k = st.length - 2;
  for (; k >= 0; k--) {
    const m = new RegExp(`^(${ID}) = (.+)$`).exec(st[k] as string);
    if (!m || m[1] !== want) break;
    const r = matchOp(m[2] as string, scratch());
    if (!r) break;
    exprs.unshift(m[2] as string);
    want = r.input;
  }
  if (exprs.length === 0) return null;
  // Built again in execution order, so scalar and tensor indices follow it.
  const fresh = scratch();
  const built = exprs.map((e) => matchOp(e, fresh)?.op).filter((o): o is TailOp => !!o);
  if (built.length !== exprs.length) return null;
  const first = k + 1;
  const prefix = st.slice(0, first);
  const producer = prefix[prefix.length - 1] ?? '';
  const producerIsModule = new RegExp(`^${want} = self\\.${ID}\\(`).test(producer);
  return { prefix, input: want, ops: built, scalars: fresh.scalars, tensors: fresh.tensors, producerIsModule };
}
