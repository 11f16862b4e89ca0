// The PyTorch search: from the fastest measured point, one option at a time, away from what measured slower.
import type { AgentAttemptView } from '../../types.js';
import type { TorchPoint } from './render.js';
import { MODE_ORDER, pointKey, START, type TorchSpace } from './space.js';

type Option = keyof TorchPoint;

export interface TorchTried {
  attempt: number;
  point: TorchPoint;
  key: string;
  outcome: 'ok' | 'bad' | 'pending';
  time: number | null;
  /** Over eager PyTorch, timed interleaved in the same run: comparable across runs on a machine whose load moves. */
  speedup: number | null;
  speedupOverCompiled: number | null;
  verdict: string | null;
  fromKey: string | null;
  change: { option: Option; from: string | number; to: string | number } | null;
}

export interface TorchChoice {
  point: TorchPoint;
  key: string;
  fromKey: string | null;
  change: TorchTried['change'];
  reason: string;
}

/** Slower than the point it came from by more than this is a move that did not pay (the runs' noise is a few %). */
const WORSE = 0.03;

function isPoint(v: unknown): v is TorchPoint {
  const p = v as TorchPoint;
  return typeof p === 'object' && p !== null && typeof p.mode === 'string' && typeof p.threads === 'number';
}

export function triedTorchPoints(history: AgentAttemptView[]): TorchTried[] {
  const out: TorchTried[] = [];
  for (const a of history) {
    const meta = a.agent_meta;
    if (meta?.agent !== 'tuner' || meta.variant !== 'pytorch' || !isPoint(meta.torch_point)) continue;
    const s = a.evaluation_state;
    const b = s?.benchmarking_result ?? null;
    const outcome = s ? (s.verdict === 'accepted' && b ? 'ok' : 'bad') : a.status === 'failed' ? 'bad' : 'pending';
    out.push({
      attempt: a.attempt_number,
      point: meta.torch_point,
      key: pointKey(meta.torch_point),
      outcome,
      time: outcome === 'ok' && b ? b.optimized_time : null,
      speedup: outcome === 'ok' && b ? b.speedup : null,
      speedupOverCompiled: outcome === 'ok' && b ? (b.speedup_over_compiled ?? null) : null,
      verdict: s?.verdict ?? (a.status === 'failed' ? 'failed' : null),
      fromKey: typeof meta.from_key === 'string' ? meta.from_key : null,
      change: (meta.change as TorchTried['change']) ?? null,
    });
  }
  return out;
}

export function bestTried(tried: TorchTried[]): TorchTried | null {
  let best: TorchTried | null = null;
  for (const t of tried)
    if (t.outcome === 'ok' && t.speedup !== null && (!best || t.speedup > (best.speedup ?? 0))) best = t;
  return best;
}

/** Option values whose move measured slower than where it came from (or slower than the reference), or failed. */
export function rejectedValues(tried: TorchTried[]): Map<string, string> {
  const byKey = new Map(tried.map((t) => [t.key, t]));
  const out = new Map<string, string>();
  for (const t of tried) {
    if (!t.change) continue;
    const id = `${t.change.option}=${t.change.to}`;
    const parent = t.fromKey ? byKey.get(t.fromKey) : undefined;
    if (t.outcome === 'bad') out.set(id, `attempt ${t.attempt} failed (${t.verdict})`);
    else if (t.outcome === 'ok' && t.speedup !== null) {
      if (t.speedup < 1) out.set(id, `attempt ${t.attempt} ran at ${t.speedup.toFixed(2)}x the reference`);
      else if (parent?.speedup != null && t.speedup < parent.speedup * (1 - WORSE))
        out.set(
          id,
          `attempt ${t.attempt} ran at ${t.speedup.toFixed(2)}x, slower than the ${parent.speedup.toFixed(2)}x of attempt ${parent.attempt} it changed`,
        );
    }
  }
  return out;
}

const ORDER: Option[] = ['mode', 'layout', 'threads'];

function values(space: TorchSpace, option: Option): (string | number)[] {
  if (option === 'mode') return MODE_ORDER.filter((m) => space.modes.includes(m));
  if (option === 'layout') return [...space.layouts].reverse();
  return space.threads;
}

export function chooseTorchPoint(space: TorchSpace, tried: TorchTried[]): TorchChoice | null {
  const keys = new Set(tried.map((t) => t.key));
  if (tried.length === 0 || !keys.has(pointKey(START)))
    return {
      point: START,
      key: pointKey(START),
      fromKey: null,
      change: null,
      reason:
        'the baseline point: the reference as written, under the name ModelNew; its time against the reference in the same run shows how much of any later difference is noise',
    };
  const best = bestTried(tried);
  const rejected = rejectedValues(tried);
  let center = best?.point ?? START;
  let why = best
    ? `attempt ${best.attempt} is the fastest measured point (${best.speedup?.toFixed(2)}x eager PyTorch)`
    : '';
  if (best && (best.speedup ?? 0) < 1 && best.key !== pointKey(START)) {
    center = START;
    why = `every measured point ran slower than the reference (the best ${best.speedup?.toFixed(2)}x), so the search moves back to the reference as written and away from those changes`;
  } else if (!best)
    why = 'nothing has been measured yet (the attempts so far failed), so the search starts again from the reference';
  const centerKey = pointKey(center);
  for (const option of ORDER)
    for (const v of values(space, option)) {
      if (v === center[option]) continue;
      const point = { ...center, [option]: v } as TorchPoint;
      const key = pointKey(point);
      if (keys.has(key) || rejected.has(`${option}=${v}`)) continue;
      return {
        point,
        key,
        fromKey: centerKey,
        change: { option, from: center[option], to: v },
        reason: `${why}; next untried option from it, in the search's order (mode, then layout, then threads)`,
      };
    }
  // Every one-option move from the centre is tried or ruled out: any untried point without a ruled-out value.
  const all = space.modes.flatMap((mode) =>
    space.layouts.flatMap((layout) => space.threads.map((threads) => ({ mode, layout, threads }) as TorchPoint)),
  );
  const far = all.find(
    (p) => !keys.has(pointKey(p)) && !ORDER.some((o) => p[o] !== START[o] && rejected.has(`${o}=${p[o]}`)),
  );
  if (!far) return null;
  return {
    point: far,
    key: pointKey(far),
    fromKey: centerKey,
    change: null,
    reason: `every one-option move from the best point has been measured or ruled out, so an untried combination of options that each measured no slower`,
  };
}
