// Where an attempt's build facts decide the tuner's next point (issue 37, docs/agents.md "Tuner"): on cuda, a kernel
// that spills registers or whose theoretical occupancy is low rules out moving its tile (or block) parameter further
// the way that got it there; on the cpu, a loop gcc did not vectorize makes the search try the space's vector
// parameter first. Facts only steer among points the search would consider anyway; the measured times still decide
// which point is best.
import type { BuildFacts } from '@kernelforge/sdk';
import { indexOf } from './points.js';
import type { Tried } from './points.js';
import type { ParamSpec, ParamValue } from './space.js';

/** Below this theoretical occupancy (at the launch's block size) a kernel is called low-occupancy. */
export const LOW_OCCUPANCY = 0.25;

/** What in a cuda kernel's facts says it is starved of registers or shared memory; null when nothing does. */
export function pressureOf(facts: BuildFacts | undefined): string | null {
  for (const k of facts?.cuda?.kernels ?? []) {
    if (k.spill_store_bytes > 0 || k.spill_load_bytes > 0)
      return `kernel ${k.name.slice(0, 80)} spills registers (${k.spill_store_bytes} B stored, ${k.spill_load_bytes} B loaded; ${k.registers} registers)`;
    const o = k.occupancy[0];
    if (o && o.occupancy < LOW_OCCUPANCY)
      return `kernel ${k.name.slice(0, 80)} has a theoretical occupancy of ${Math.round(o.occupancy * 100)}% at ${o.block_size} threads (limited by ${o.limiter})`;
  }
  return null;
}

/** A loop gcc reported it did not vectorize, in a sentence; null when every reported loop vectorized. */
export function missedLoop(facts: BuildFacts | undefined): string | null {
  const l = facts?.vectorization?.find((v) => !v.vectorized);
  return l ? `line ${l.line}${l.reasons[0] ? ` (${l.reasons[0].replace(/\.$/, '')})` : ''}` : null;
}

const TILE_TAGS = ['tile', 'block'];

export interface FactsRules {
  /** Why moving `spec` to `to` (direction `dir`) from the centre is ruled out by the facts; null when it is not. */
  ruledOut(spec: ParamSpec, to: ParamValue, dir: number): string | null;
  /** Why the facts put moving `spec` in direction `dir` first; null when they do not. */
  preferred(spec: ParamSpec, dir: number): string | null;
}

/**
 * The facts' rules around `center` (the best point, `centerTried` its attempt when measured) given every tried point:
 * - a point whose kernel spills or runs at low occupancy, reached by moving a parameter one way, rules out that
 *   parameter at its value and beyond the same way (from any centre);
 * - a centre that itself spills or runs at low occupancy rules out larger tile or block parameters;
 * - a centre with a loop gcc did not vectorize puts turning the space's vector parameter up first.
 */
export function factsRules(tried: readonly Tried[], centerTried: Tried | undefined): FactsRules {
  const starved = tried
    .map((t) => ({ t, why: pressureOf(t.facts) }))
    .filter((x): x is { t: Tried; why: string } => x.why !== null);
  const centerPressure = pressureOf(centerTried?.facts);
  const missed = missedLoop(centerTried?.facts);
  return {
    ruledOut(spec, to, dir) {
      for (const { t, why } of starved) {
        const c = t.change;
        if (!c || c.param !== spec.name) continue;
        const from = indexOf(spec, c.from);
        const at = indexOf(spec, c.to);
        const d = Math.sign(at - from);
        if (from < 0 || at < 0 || d === 0 || d !== dir) continue;
        if ((indexOf(spec, to) - at) * d >= 0)
          return `${spec.name}=${to} is ruled out: at ${spec.name}=${c.to} (attempt #${t.attempt}) the ${why}`;
      }
      if (centerPressure && dir > 0 && spec.tags.some((g) => TILE_TAGS.includes(g)))
        return `a larger ${spec.name} is ruled out: at the best point (attempt #${centerTried?.attempt}) the ${centerPressure}`;
      return null;
    },
    preferred(spec, dir) {
      if (!missed || dir <= 0 || !spec.tags.includes('vector')) return null;
      return `gcc did not vectorize the loop at ${missed} in attempt #${centerTried?.attempt}, so turning ${spec.name} up first (${spec.about})`;
    },
  };
}
