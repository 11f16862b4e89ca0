// The tuner's search: hill climbing by coordinate descent from the best measured point, never repeating a point.
import { factsRules } from './facts.js';
import { snap } from './fit.js';
import { indexOf, isActive, isValid, normalise, pointKey, startPoint, type Tried } from './points.js';
import type { ParamSpec, ParamValue, Params, Variant } from './space.js';
import type { Steering } from './steer.js';

export interface Move {
  param: string;
  from: ParamValue;
  to: ParamValue;
}

export interface Choice {
  params: Params;
  key: string;
  /** The point moved from (the best measured one, usually), null for the first. */
  fromKey: string | null;
  moves: Move[];
  /** Why this point, in a sentence for the explanation. */
  reason: string;
}

const pct = (a: number, b: number) => `${Math.abs(Math.round((1 - b / a) * 100))}%`;
const ms = (t: number) => `${t.toPrecision(3)} ms`;
/** The search's times are at one reference speed when the figures are paired (points.ts): said so beside them. */
const compared = (t: Pick<Tried, 'atReference'> | undefined) => (t?.atReference ? ' at one reference speed' : '');

/** Feasibility under the instructions: pinned values held, pushed parameters moved the asked way from the baseline. */
function makeFeasible(variant: Variant, steering: Steering, baseline: Params) {
  const pushed = variant.params.filter((p) => steering.pushes.some((u) => p.tags.some((t) => u.tags.includes(t))));
  const dirOf = (p: ParamSpec) => steering.pushes.find((u) => p.tags.some((t) => u.tags.includes(t)))?.direction ?? 1;
  // Pushes that cannot move at all (already at the end of every range) are dropped rather than making everything infeasible.
  const canPush = pushed.some((p) => {
    const i = indexOf(p, baseline[p.name]);
    return isActive(p, baseline) && (dirOf(p) > 0 ? i < p.values.length - 1 : i > 0);
  });
  return (params: Params): boolean => {
    if (!isValid(variant, params)) return false;
    for (const pin of steering.pins) {
      const spec = variant.params.find((p) => p.name === pin.param);
      if (spec && isActive(spec, params) && params[pin.param] !== pin.value) return false;
    }
    if (!canPush) return true;
    let moved = 0;
    for (const p of pushed) {
      if (!isActive(p, params)) continue;
      const d = (indexOf(p, params[p.name]) - indexOf(p, baseline[p.name])) * dirOf(p);
      if (d < 0) return false;
      moved += d;
    }
    return moved > 0;
  };
}

/** Apply pins (and the `when` conditions a pinned parameter needs), then one step of each push. */
function project(variant: Variant, steering: Steering, from: Params): { params: Params; moves: Move[] } {
  const p0 = { ...from };
  for (const pin of steering.pins) {
    const spec = variant.params.find((p) => p.name === pin.param);
    for (const [k, v] of Object.entries(spec?.when ?? {})) if (!steering.pins.some((q) => q.param === k)) p0[k] = v;
    p0[pin.param] = pin.value;
  }
  let params = normalise(variant, p0);
  for (const push of steering.pushes) {
    // Step the first pushed parameter (in the space's order of importance) that can move.
    for (const spec of variant.params) {
      if (!spec.tags.some((t) => push.tags.includes(t)) || !isActive(spec, params)) continue;
      const i = indexOf(spec, params[spec.name]) + push.direction;
      const to = spec.values[i];
      if (to === undefined) continue;
      const next = normalise(variant, { ...params, [spec.name]: to });
      if (!isValid(variant, next)) continue;
      params = next;
      break;
    }
  }
  const moves = variant.params
    .filter((p) => params[p.name] !== from[p.name])
    .map((p) => ({ param: p.name, from: from[p.name] as ParamValue, to: params[p.name] as ParamValue }));
  return { params, moves };
}

/** The point `center` with `spec` at `to` and the parameter it trades against (spec.trade) at the value nearest to
    keeping their product; null when there is none, or that point is not valid either. */
function tradedPoint(
  variant: Variant,
  spec: ParamSpec,
  center: Params,
  to: ParamValue,
): { params: Params; move: Move; product: number } | null {
  const other = variant.params.find((p) => p.name === spec.trade);
  const from = center[spec.name];
  const was = other ? center[other.name] : undefined;
  if (!other || typeof to !== 'number' || typeof from !== 'number' || typeof was !== 'number' || to <= 0) return null;
  const product = from * was;
  const pick = snap(other.values, product / to);
  if (pick === undefined || pick === was) return null;
  const params = normalise(variant, { ...center, [spec.name]: to, [other.name]: pick });
  return isValid(variant, params) ? { params, move: { param: other.name, from: was, to: pick }, product } : null;
}

function best(tried: Tried[], ok: (t: Tried) => boolean): Tried | null {
  let b: Tried | null = null;
  for (const t of tried)
    if (t.outcome === 'ok' && t.time !== null && ok(t) && (!b || t.time < (b.time ?? Infinity))) b = t;
  return b;
}

/** Deterministic PRNG so a session replays the same way (mulberry32). */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Points differ in this many active parameters. */
function distance(variant: Variant, a: Params, b: Params): number {
  return variant.params.filter((p) => (isActive(p, a) || isActive(p, b)) && a[p.name] !== b[p.name]).length;
}

/**
 * While the best measured point is still slower than the reference, small steps around it are not worth an
 * attempt: the search moves away first, to the space's rescue points in order, then to the untried point farthest
 * from every point that was slower than the reference (best of a few hundred samples).
 */
function moveAway(
  variant: Variant,
  tried: Tried[],
  top: Tried,
  fresh: (p: Params) => boolean,
  seed: number,
): Choice | null {
  if (top.speedup === null || top.speedup >= 1) return null;
  const why = `the best point so far runs at ${top.speedup.toFixed(2)}x the reference (slower than it), so the search moves away from it before refining`;
  const moves = (params: Params) =>
    variant.params
      .filter((p) => params[p.name] !== top.params[p.name])
      .map((p) => ({ param: p.name, from: top.params[p.name] as ParamValue, to: params[p.name] as ParamValue }));
  for (const [i, r] of (variant.rescue ?? []).entries()) {
    const params = normalise(variant, { ...startPoint(variant), ...r });
    if (!fresh(params)) continue;
    return {
      params,
      key: pointKey(variant, params),
      fromKey: top.key,
      moves: moves(params),
      reason: `${why}: rescue point ${i + 1} of the space (${Object.entries(r)
        .map(([k, v]) => `${k}=${v}`)
        .join(' ')})`,
    };
  }
  const slow = tried.filter((t) => t.outcome === 'ok' && t.speedup !== null && t.speedup < 1);
  const rand = rng(seed * 7919 + 17);
  let pick: Params | null = null;
  let far = -1;
  for (let n = 0; n < 400; n++) {
    const params = normalise(
      variant,
      Object.fromEntries(
        variant.params.map((p) => [p.name, p.values[Math.floor(rand() * p.values.length)] as ParamValue]),
      ),
    );
    if (!fresh(params)) continue;
    const d = Math.min(...slow.map((t) => distance(variant, params, t.params)));
    if (d > far) {
      far = d;
      pick = params;
    }
  }
  if (!pick) return null;
  return {
    params: pick,
    key: pointKey(variant, pick),
    fromKey: top.key,
    moves: moves(pick),
    reason: `${why}: an untried point ${far} parameters away from every point that was slower than the reference`,
  };
}

export function choosePoint(
  variant: Variant,
  tried: Tried[],
  steering: Steering,
  opts: { currentInstruction: string | null; seed: number },
): Choice | null {
  const triedKeys = new Set(tried.map((t) => t.key));
  const byKey = new Map(tried.map((t) => [t.key, t]));
  // The baseline for pushes is where the session stood before the current instruction.
  const before = best(tried, (t) => t.instruction !== opts.currentInstruction);
  const baseline = before?.params ?? startPoint(variant);
  const feasible = makeFeasible(variant, steering, baseline);
  const fresh = (p: Params) => feasible(p) && !triedKeys.has(pointKey(variant, p));

  const top = best(tried, (t) => feasible(t.params));
  const away = top ? moveAway(variant, tried, top, fresh, opts.seed) : null;
  if (away) return away;
  let center: Params;
  if (!top) {
    const { params, moves } = project(variant, steering, baseline);
    const key = pointKey(variant, params);
    if (fresh(params)) {
      const reason =
        moves.length === 0
          ? "the starting point: the space's sensible defaults"
          : before
            ? 'the best point so far, moved as the instructions ask'
            : 'the starting point, moved as the instructions ask';
      return { params, key, fromKey: before ? before.key : null, moves, reason };
    }
    center = params;
  } else center = top.params;

  const centerKey = pointKey(variant, center);
  const centerTried = byKey.get(centerKey);
  // Momentum: the move that produced the best point, if it improved on the point it came from.
  const parent = centerTried?.fromKey ? byKey.get(centerTried.fromKey) : undefined;
  const momentum =
    centerTried?.change && parent?.time != null && centerTried.time != null && centerTried.time < parent.time
      ? {
          ...centerTried.change,
          gain: pct(parent.time, centerTried.time),
          t0: parent.time,
          t1: centerTried.time,
          at: compared(centerTried),
        }
      : null;

  interface Cand {
    params: Params;
    move: Move;
    /** The traded parameter's move, where there is one. */
    also?: Move;
    score: number;
    reason: string;
  }
  const cands: Cand[] = [];
  // The build facts' say (tuner/facts.ts): spills or low occupancy rule a move out, a missed loop puts one first.
  const facts = factsRules(tried, centerTried);
  const ruled: string[] = [];
  variant.params.forEach((spec, order) => {
    if (!isActive(spec, center)) return;
    const i = indexOf(spec, center[spec.name]);
    for (const step of [1, -1, 2, -2]) {
      const to = spec.values[i + step];
      if (to === undefined) continue;
      let params = normalise(variant, { ...center, [spec.name]: to });
      // A move past the space's limits (valid) with a parameter it trades against: that one moves too, keeping their
      // product (12 x 2 -> 6 x 4); such a move counts as one step, whatever its distance.
      const traded = !isValid(variant, params) ? tradedPoint(variant, spec, center, to) : null;
      if (traded) params = traded.params;
      if (!fresh(params)) continue;
      const move = { param: spec.name, from: center[spec.name] as ParamValue, to };
      const dir = Math.sign(step);
      const out = facts.ruledOut(spec, to, dir);
      if (out) {
        ruled.push(out);
        continue;
      }
      const far = Math.abs(step) > 1 && !traded;
      const pushed = steering.pushes.find((u) => spec.tags.some((t) => u.tags.includes(t)) && u.direction === dir);
      const other = spec.values[i - dir];
      const opposite =
        other === undefined
          ? undefined
          : byKey.get(pointKey(variant, normalise(variant, { ...center, [spec.name]: other })));
      let score = 10 + order * 4 + (dir > 0 ? 0 : 1) + (far ? 1000 : 0);
      let reason = far
        ? `every one-step neighbour of the best point has been tried, so a two-step move of ${spec.name} (${spec.about})`
        : `next in coordinate-descent order around the best point: ${spec.name} (${spec.about}) not yet tried at ${to}`;
      if (
        momentum &&
        momentum.param === spec.name &&
        !far &&
        Math.sign(indexOf(spec, momentum.to) - indexOf(spec, momentum.from)) === dir
      ) {
        score = 0;
        reason = `the last change of ${spec.name} (${momentum.from}→${momentum.to}) cut the time ${momentum.gain} (${ms(momentum.t0)} → ${ms(momentum.t1)}${momentum.at}), so continuing in that direction`;
      } else if (facts.preferred(spec, dir) && !far) {
        score = 0.5;
        reason = facts.preferred(spec, dir) as string;
      } else if (pushed && !far) {
        score = 1 + order;
        reason = `the instruction '${pushed.because}' asks for ${dir > 0 ? 'larger' : 'smaller'} ${pushed.tags.join('/')} parameters`;
      } else if (opposite && opposite.key !== centerTried?.key && !far) {
        reason =
          opposite.outcome === 'ok' && opposite.time !== null && centerTried?.time != null
            ? `${spec.name}=${opposite.params[spec.name]} was ${pct(centerTried.time, opposite.time)} slower than the best (${ms(opposite.time)} vs ${ms(centerTried.time)}${compared(centerTried)}), so trying the other side`
            : `${spec.name}=${opposite.params[spec.name]} ${opposite.outcome === 'bad' ? `failed (${opposite.verdict})` : 'is still unmeasured'}, so trying the other side`;
        score -= 0.5;
      }
      if (traded)
        reason = `${reason}; ${traded.move.param} ${traded.move.from}→${traded.move.to} with it, keeping ${spec.name} x ${traded.move.param} (${traded.product}) within the space's limits`;
      cands.push({ params, move, score, reason, ...(traded ? { also: traded.move } : {}) });
    }
  });
  cands.sort((a, b) => a.score - b.score);
  const pick = cands[0];
  if (pick)
    return {
      params: pick.params,
      key: pointKey(variant, pick.params),
      fromKey: centerKey,
      moves: pick.also ? [pick.move, pick.also] : [pick.move],
      reason: ruled.length
        ? `${pick.reason}; the build facts rule out ${ruled.length} move${ruled.length === 1 ? '' : 's'}: ${ruled[0]}`
        : pick.reason,
    };

  // Every neighbour tried: sample untried points so the search can leave a local optimum.
  const rand = rng(opts.seed);
  for (let n = 0; n < 5000; n++) {
    const params = normalise(
      variant,
      Object.fromEntries(
        variant.params.map((p) => [p.name, p.values[Math.floor(rand() * p.values.length)] as ParamValue]),
      ),
    );
    if (!fresh(params)) continue;
    const moves = variant.params
      .filter((p) => params[p.name] !== center[p.name])
      .map((p) => ({ param: p.name, from: center[p.name] as ParamValue, to: params[p.name] as ParamValue }));
    return {
      params,
      key: pointKey(variant, params),
      fromKey: centerKey,
      moves,
      reason: 'every point near the best has been tried, so sampling an untried point of the space',
    };
  }
  return null;
}
