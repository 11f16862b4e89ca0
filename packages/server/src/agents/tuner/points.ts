// Points of a tuning space: normalising, keys, validity, and what earlier attempts tried and measured.
import { type AttemptFigure, attemptFigure, type BuildFacts } from '@kernelforge/sdk';
import type { AgentAttemptView } from '../types.js';
import type { ParamSpec, ParamValue, Params, Variant } from './space.js';

export interface Tried {
  attempt: number;
  key: string;
  params: Params;
  /** ok: accepted and timed; bad: any failed verdict; pending: not (yet) evaluated. */
  outcome: 'ok' | 'bad' | 'pending';
  /** The time the search compares points by: as measured, or at the session reference speed when the figures are
      paired (atOneReferenceSpeed, `atReference`). Not the attempt's figure: that is `figure`. */
  time: number | null;
  /** Whether `time` is at the session reference speed rather than as measured. */
  atReference: boolean;
  /** The attempt's own figure (its measured time with its interval, its speedup): what the note reports, as every
      other face shows it. Undefined unless accepted and timed. */
  figure: AttemptFigure | undefined;
  speedup: number | null;
  verdict: string | null;
  instruction: string | null;
  /** The point this one was a move from, and the move, as the tuner recorded them. */
  fromKey: string | null;
  change: { param: string; from: ParamValue; to: ParamValue } | null;
  /** The attempt's build facts (spills, occupancy, vectorization: tuner/facts.ts), where it has them. */
  facts?: BuildFacts | undefined;
}

export function isActive(p: ParamSpec, params: Params): boolean {
  return Object.entries(p.when ?? {}).every(([k, v]) => params[k] === v);
}

/** Parameters that do not matter at this point go back to their start, so equivalent points share a key. */
export function normalise(variant: Variant, params: Params): Params {
  const out: Params = {};
  for (const p of variant.params) out[p.name] = params[p.name] ?? p.start;
  for (const p of variant.params) if (!isActive(p, out)) out[p.name] = p.start;
  return out;
}

export function pointKey(variant: Variant, params: Params): string {
  return variant.params
    .filter((p) => isActive(p, params))
    .map((p) => `${p.name}=${params[p.name]}`)
    .join(',');
}

export function startPoint(variant: Variant): Params {
  return normalise(variant, Object.fromEntries(variant.params.map((p) => [p.name, p.start])));
}

export function indexOf(p: ParamSpec, v: ParamValue | undefined): number {
  return v === undefined ? -1 : p.values.indexOf(v);
}

const validators = new WeakMap<Variant, (params: Params) => boolean>();

/**
 * The variant's `valid` expression over its parameters and, once fitted to a device, the device's constants (VREGS,
 * VW, ...: fit.ts). Trusted: it comes from the repository's space.json, and is character-checked.
 */
export function isValid(variant: Variant, params: Params): boolean {
  let check = validators.get(variant);
  if (!check) {
    const expr = variant.valid;
    if (!expr) check = () => true;
    else {
      if (!/^[\w\s+\-*/%()<>=!&|.]+$/.test(expr)) throw new Error(`space ${variant.name}: bad valid expression`);
      const names = variant.params.map((p) => p.name);
      const constants = Object.entries(variant.constants ?? {}).filter(([k]) => !names.includes(k));
      const fn = new Function(...names, ...constants.map(([k]) => k), `return (${expr});`) as (
        ...args: ParamValue[]
      ) => unknown;
      check = (ps) =>
        Boolean(fn(...names.map((n) => ps[n] as ParamValue), ...constants.map(([, v]) => v as ParamValue)));
    }
    validators.set(variant, check);
  }
  return check(params);
}

/** The tuner's earlier points in this session for this variant, read from the attempts' agent_meta and results. */
export function triedPoints(variant: Variant, history: AgentAttemptView[]): Tried[] {
  return atOneReferenceSpeed(history, rawTriedPoints(variant, history));
}

/**
 * On a shared machine one kernel's time drifts by tens of percent between minutes (the host's memory bandwidth: an
 * identical ReLU read 1.9-3.3 ms in runs minutes apart, bench/README.md), while the paired speedup of each
 * evaluation holds within 1-2%, since the reference is timed beside the candidate. So when every measured point of
 * the session carries a paired speedup (the runner's `speedup_interval`), the search compares points at one
 * reference speed: the median of their reference times over the session divided by each point's speedup. The
 * quietest minute then no longer decides which point is best, and a move is credited with what it changed. Points
 * without paired figures (an older runner) keep their measured times.
 */
function atOneReferenceSpeed(history: AgentAttemptView[], tried: Tried[]): Tried[] {
  const byNumber = new Map(history.map((a) => [a.attempt_number, a.evaluation_state?.benchmarking_result ?? null]));
  const ok = tried.filter((t) => t.outcome === 'ok');
  const paired = ok.every((t) => {
    const b = byNumber.get(t.attempt);
    return b?.speedup_interval !== undefined && b.speedup > 0 && b.baseline_time > 0;
  });
  if (ok.length === 0 || !paired) return tried;
  const refs = ok.map((t) => byNumber.get(t.attempt)?.baseline_time as number).sort((a, b) => a - b);
  const mid = refs.length >> 1;
  const ref = refs.length % 2 ? (refs[mid] as number) : ((refs[mid - 1] as number) + (refs[mid] as number)) / 2;
  return tried.map((t) => (t.outcome === 'ok' && t.speedup ? { ...t, time: ref / t.speedup, atReference: true } : t));
}

function rawTriedPoints(variant: Variant, history: AgentAttemptView[]): Tried[] {
  const out: Tried[] = [];
  for (const a of history) {
    const meta = a.agent_meta;
    if (meta?.agent !== 'tuner' || meta.variant !== variant.name) continue;
    if (typeof meta.params !== 'object' || meta.params === null) continue;
    const params = normalise(variant, meta.params as Params);
    const state = a.evaluation_state;
    const bench = state?.benchmarking_result ?? null;
    const outcome = state
      ? state.verdict === 'accepted' && bench
        ? 'ok'
        : 'bad'
      : a.status === 'failed'
        ? 'bad'
        : 'pending';
    out.push({
      attempt: a.attempt_number,
      key: pointKey(variant, params),
      params,
      outcome,
      time: outcome === 'ok' && bench ? bench.optimized_time : null,
      atReference: false,
      figure: outcome === 'ok' ? attemptFigure(a) : undefined,
      speedup: outcome === 'ok' && bench ? bench.speedup : null,
      verdict: state?.verdict ?? (a.status === 'failed' ? 'failed' : null),
      instruction: typeof meta.instruction === 'string' ? meta.instruction : null,
      fromKey: typeof meta.from_key === 'string' ? meta.from_key : null,
      change: isChange(meta.change) ? meta.change : null,
      facts: state?.compile?.facts,
    });
  }
  return out;
}

function isChange(v: unknown): v is Tried['change'] & object {
  return typeof v === 'object' && v !== null && typeof (v as { param?: unknown }).param === 'string';
}
