// Fits a tuning space to the device it runs on: vector width, register count and cache sizes come from the device
// the runner reported (never assumed), and parameters with a `fit` expression start at the value it gives.
import type { Device, Problem } from '@kernelforge/sdk';
import type { ParamValue, Params, Variant } from './space.js';

/** Device facts a space's `fit`, `valid` and template may use. */
export interface DeviceConstants extends Params {
  /** e.g. avx2, avx512, neon; `unknown` when the runner did not say. */
  ISA: string;
  /** fp32 lanes per vector register; 0 when unknown (templates then let the compiler's target decide). */
  VW: number;
  /** Vector registers (16 on x86-64 before AVX-512, 32 with AVX-512 and on arm64). */
  VREGS: number;
  /** Per-core cache sizes in bytes, and in KiB for comments. */
  L1D: number;
  L2: number;
  L3: number;
  L1D_KIB: number;
  L2_KIB: number;
  L3_KIB: number;
  CORES: number;
}

/** What a space's `fit`, `valid` and template may use: the device's facts and the problem's working set. */
export interface FitConstants extends DeviceConstants {
  /** Bytes of the arrays the problem's largest benchmark case passes (inputs and outputs): what one call touches;
      0 when unknown. Compared with L3, it says whether the case streams from memory or stays cache-resident. */
  WS: number;
}

/** Used only when a device says nothing about itself (an older runner): conservative x86-64 figures. */
const FALLBACK = { VREGS: 16, L1D: 32 * 1024, L2: 256 * 1024, L3: 4 * 1024 * 1024 };

export function deviceConstants(device: Pick<Device, 'cpu' | 'cores'>): DeviceConstants {
  const cpu = device.cpu;
  const c = cpu?.caches;
  const l1 = c?.l1d_bytes || FALLBACK.L1D;
  const l2 = c?.l2_bytes || FALLBACK.L2;
  // Last level as one core's share when it is shared, at least the L2 (machines without an L3).
  const l3raw = c?.l3_bytes || FALLBACK.L3;
  const l3 = Math.max(l2, l3raw);
  return {
    ISA: cpu?.vector_isa ?? 'unknown',
    VW: cpu ? Math.max(1, Math.floor(cpu.vector_bits / 32)) : 0,
    VREGS: cpu?.vector_registers ?? FALLBACK.VREGS,
    L1D: l1,
    L2: l2,
    L3: l3,
    L1D_KIB: Math.round(l1 / 1024),
    L2_KIB: Math.round(l2 / 1024),
    L3_KIB: Math.round(l3 / 1024),
    CORES: cpu?.physical_cores ?? device.cores ?? 1,
  };
}

const ELEMENT_BYTES: Record<string, number> = { 'f32*': 4, 'f64*': 8, 'i32*': 4, 'i64*': 8 };

/**
 * The bytes of the pointer arguments of the problem's largest benchmark case (their shapes evaluated at the case's
 * sizes); 0 when the problem names no benchmark case or a shape cannot be evaluated.
 */
export function workingSetBytes(problem: Pick<Problem, 'signature' | 'cases'> | undefined): number {
  let most = 0;
  for (const c of problem?.cases?.benchmark ?? []) {
    let bytes = 0;
    for (const a of problem?.signature ?? []) {
      const size = ELEMENT_BYTES[a.type];
      if (!size || a.role === 'size' || a.role === 'scalar') continue;
      let elements = 1;
      for (const dim of a.shape ?? []) {
        let x: number;
        try {
          x = Number(evalSpaceExpr(dim, c.sizes));
        } catch {
          return 0;
        }
        if (!Number.isFinite(x) || x < 0) return 0;
        elements *= x;
      }
      bytes += elements * size;
    }
    most = Math.max(most, bytes);
  }
  return most;
}

const FUNCS = {
  min: Math.min,
  max: Math.max,
  floor: Math.floor,
  ceil: Math.ceil,
  log2: Math.log2,
  round: Math.round,
};

/** Evaluates a space's expression (trusted: it comes from the repository's space.json, and is character-checked). */
export function evalSpaceExpr(expr: string, scope: Params): unknown {
  if (!/^[\w\s+\-*/%()<>=!&|.?:,']+$/.test(expr)) throw new Error(`bad space expression: ${expr}`);
  const names = [...Object.keys(FUNCS), ...Object.keys(scope)];
  const fn = new Function(...names, `return (${expr});`) as (...args: unknown[]) => unknown;
  return fn(...Object.values(FUNCS), ...Object.values(scope));
}

/** The value of `values` nearest to x (by ratio for positive numbers, so 100 is nearer 96 than 128). */
export function snap(values: readonly ParamValue[], x: number): ParamValue | undefined {
  let best: ParamValue | undefined;
  let bestD = Number.POSITIVE_INFINITY;
  for (const v of values) {
    if (typeof v !== 'number') continue;
    const d = v > 0 && x > 0 ? Math.abs(Math.log(v / x)) : Math.abs(v - x);
    if (d < bestD) {
      bestD = d;
      best = v;
    }
  }
  return best;
}

const fitted = new WeakMap<Variant, Map<string, Variant>>();

/**
 * The variant with starts fitted to the device (and the problem's working set, WS) and its constants attached (for
 * `valid` and the template). Fits may name other parameters (their starts) and the constants; they are evaluated
 * twice so one may depend on another. A fit gives a number (the nearest of the values is taken) or one of the
 * values itself (e.g. a store kind).
 */
export function fitVariant(
  variant: Variant,
  device: Pick<Device, 'cpu' | 'cores'>,
  problem?: Pick<Problem, 'signature' | 'cases'>,
): Variant {
  const constants: FitConstants = { ...deviceConstants(device), WS: workingSetBytes(problem) };
  const key = JSON.stringify(constants);
  const byDevice = fitted.get(variant) ?? new Map<string, Variant>();
  fitted.set(variant, byDevice);
  const hit = byDevice.get(key);
  if (hit) return hit;
  const starts: Params = Object.fromEntries(variant.params.map((p) => [p.name, p.start]));
  for (let pass = 0; pass < 2; pass++) {
    for (const p of variant.params) {
      if (!p.fit) continue;
      const r = evalSpaceExpr(p.fit, { ...constants, ...starts });
      if (typeof r === 'string') {
        if (p.values.includes(r)) starts[p.name] = r;
        continue;
      }
      const x = Number(r);
      const v = Number.isFinite(x) ? snap(p.values, x) : undefined;
      if (v !== undefined) starts[p.name] = v;
    }
  }
  const out: Variant = {
    ...variant,
    constants,
    params: variant.params.map((p) => ({ ...p, start: starts[p.name] as ParamValue })),
  };
  byDevice.set(key, out);
  return out;
}
