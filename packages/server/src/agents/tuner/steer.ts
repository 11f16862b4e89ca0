// Maps instructions onto the tuner's parameters: pins (a parameter held at a value) and pushes (a direction).
import type { ParamSpec, ParamTag, ParamValue, Variant } from './space.js';

export interface Pin {
  param: string;
  value: ParamValue;
  because: string;
}
export interface Push {
  tags: ParamTag[];
  direction: 1 | -1;
  because: string;
}
export interface Steering {
  pins: Pin[];
  pushes: Push[];
  /** Instructions (or parts) the tuner cannot map onto this space, verbatim. */
  unfollowed: string[];
}

interface Rule {
  pattern: RegExp;
  apply: (m: RegExpMatchArray, params: ParamSpec[]) => { pins?: Pin[]; push?: Omit<Push, 'because'> } | null;
}

const byTag = (params: ParamSpec[], tag: ParamTag) => params.filter((p) => p.tags.includes(tag));
const first = <T>(xs: T[]) => xs[0];
const lowest = (p: ParamSpec) => p.values[0] as ParamValue;
const highest = (p: ParamSpec) => p.values[p.values.length - 1] as ParamValue;

/** A push only means something when the space has a parameter it moves. */
function pushIfAny(params: ParamSpec[], tags: ParamTag[], direction: 1 | -1) {
  return params.some((p) => p.tags.some((t) => tags.includes(t))) ? { push: { tags, direction } } : null;
}

/** Nearest listed value to a requested thread count. */
function nearest(p: ParamSpec, want: number): ParamValue {
  const nums = p.values.filter((v): v is number => typeof v === 'number');
  const first = nums[0];
  if (first === undefined) return lowest(p);
  return nums.reduce((a, b) => (Math.abs(b - want) < Math.abs(a - want) ? b : a), first);
}

// Order matters: the first rule that matches a phrase wins, so the negative forms come before the positive.
const RULES: Rule[] = [
  {
    pattern:
      /\b(?:use|with|on)?\s*(?:1|one|a single)\s+(?:thread|core)s?\b|\bsingle[- ]thread(?:ed)?\b|\bserial(?:ly)?\b|\bsequential(?:ly)?\b/i,
    apply: (_m, ps) => {
      const t = first(byTag(ps, 'threads'));
      if (t) return { pins: [{ param: t.name, value: nearest(t, 1), because: '' }] };
      const o = first(byTag(ps, 'openmp'));
      return o ? { pins: [{ param: o.name, value: lowest(o), because: '' }] } : null;
    },
  },
  {
    pattern:
      /\b(?:no|without|disable|drop|avoid|turn off)\s+(?:the\s+)?(?:openmp|omp|multi-?threading|threads|parallelism)\b/i,
    apply: (_m, ps) => {
      const o = first(byTag(ps, 'openmp'));
      return o ? { pins: [{ param: o.name, value: lowest(o), because: '' }] } : null;
    },
  },
  {
    pattern: /\b(?:use|with)\s+(\d+)\s+(?:threads|cores)\b/i,
    apply: (m, ps) => {
      const t = first(byTag(ps, 'threads'));
      const pins: Pin[] = [];
      if (t) pins.push({ param: t.name, value: nearest(t, Number(m[1])), because: '' });
      const o = first(byTag(ps, 'openmp'));
      if (o && Number(m[1]) > 1) pins.push({ param: o.name, value: highest(o), because: '' });
      return pins.length ? { pins } : null;
    },
  },
  {
    pattern:
      /\b(?:use|enable|with|add)\s+(?:openmp|omp|all (?:the )?cores|multi-?threading)\b|\bparallel(?:ize|ise)\b/i,
    apply: (_m, ps) => {
      const o = first(byTag(ps, 'openmp'));
      return o ? { pins: [{ param: o.name, value: highest(o), because: '' }] } : null;
    },
  },
  {
    pattern:
      /\b(?:bigger|larger|increase|more|grow)\s+(?:the\s+)?(?:cache\s+|register\s+|thread\s+)?(?:tile|tiles|tiling|block|blocks|blocking|block sizes?|tile sizes?)\b/i,
    apply: (_m, ps) => pushIfAny(ps, ['tile', 'block'], 1),
  },
  {
    pattern:
      /\b(?:smaller|decrease|reduce|shrink|fewer)\s+(?:the\s+)?(?:cache\s+|register\s+|thread\s+)?(?:tile|tiles|tiling|block|blocks|blocking|block sizes?|tile sizes?)\b/i,
    apply: (_m, ps) => pushIfAny(ps, ['tile', 'block'], -1),
  },
  {
    pattern: /\b(?:no|don't|do not|stop|less)\s+unroll(?:ing)?\b|\bunroll\s+less\b/i,
    apply: (_m, ps) => pushIfAny(ps, ['unroll'], -1),
  },
  {
    pattern: /\bunroll(?:ing)?\s+(?:more|further|harder)\b|\bmore\s+unroll(?:ing)?\b|\bunroll\b/i,
    apply: (_m, ps) => pushIfAny(ps, ['unroll'], 1),
  },
  {
    pattern: /\bvectori[sz](?:e|ation)\b|\bsimd\b|\bavx(?:-?512|2)?\b|\bwider vectors?\b|\bvector loads?\b/i,
    apply: (_m, ps) => {
      const v = byTag(ps, 'vector');
      return v.length ? { pins: v.map((p) => ({ param: p.name, value: highest(p), because: '' })) } : null;
    },
  },
  {
    pattern: /\b(static|dynamic|guided)\s+schedul(?:e|ing)\b|\bschedule\s*\(?\s*(static|dynamic|guided)/i,
    apply: (m, ps) => {
      const kind = (m[1] ?? m[2] ?? '').toLowerCase();
      const s = first(byTag(ps, 'schedule'));
      const value = s?.values.find((v) => String(v).startsWith(kind));
      return s && value !== undefined ? { pins: [{ param: s.name, value, because: '' }] } : null;
    },
  },
  {
    pattern: /\b(?:non-?temporal|streaming)\s+stores?\b/i,
    apply: (_m, ps) => {
      const s = first(byTag(ps, 'store'));
      const value = s?.values.find((v) => String(v) === 'nontemporal');
      return s && value !== undefined ? { pins: [{ param: s.name, value, because: '' }] } : null;
    },
  },
];

// Asking for speed in general is what the tuner does anyway, so these are followed by searching as usual.
const GENERAL = /\b(?:faster|speed|optimi[sz]e|improve|tune|performance|quick|best)\b/i;

/** What the tuner can follow, for explanations. */
export const FOLLOWABLE =
  "'bigger tiles' / 'smaller blocks', 'no OpenMP', 'use N threads' / 'single thread', 'unroll more' / 'no unrolling', " +
  "'vectorize', 'static/dynamic/guided schedule', 'non-temporal stores' (where the problem's space has such a parameter), " +
  "and 'make it faster'";

/** Reads every active instruction; later ones override earlier pins; pushes come from the current one only. */
export function steer(variant: Variant, instructions: string[], current: string | null): Steering {
  const pins = new Map<string, Pin>();
  const pushes: Push[] = [];
  const unfollowed: string[] = [];
  for (const text of instructions) {
    const isCurrent = text === current;
    let matched = false;
    // Each matched phrase is blanked out, so "don't unroll" cannot also read as "unroll".
    let rest = text;
    for (const rule of RULES) {
      const m = rest.match(rule.pattern);
      if (!m) continue;
      rest = rest.replace(m[0], ' ');
      const effect = rule.apply(m, variant.params);
      if (!effect) continue;
      matched = true;
      for (const pin of effect.pins ?? []) pins.set(pin.param, { ...pin, because: text });
      if (effect.push && isCurrent) pushes.push({ ...effect.push, because: text });
    }
    if (!matched && !GENERAL.test(text) && text.trim() !== '') unfollowed.push(text);
  }
  return { pins: [...pins.values()], pushes, unfollowed };
}
