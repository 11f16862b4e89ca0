// A problem's tuning space: `problems/<name>/tuner/space.json` plus the template each variant renders.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Language } from '@kernelforge/sdk';

export type ParamValue = number | string;
export type Params = Record<string, ParamValue>;

/** Words instructions are mapped onto (see steer.ts). */
export type ParamTag =
  | 'tile'
  | 'block'
  | 'unroll'
  | 'vector'
  | 'openmp'
  | 'threads'
  | 'schedule'
  | 'order'
  | 'flags'
  | 'store';

export interface ParamSpec {
  name: string;
  /** Ordered from small/off to large/on, so "bigger" and "more" mean a higher index. */
  values: ParamValue[];
  start: ParamValue;
  about: string;
  tags: ParamTag[];
  /** The parameter matters only when these others hold these values (else it is pinned to `start`). */
  when?: Params;
  /**
   * An expression over the device's constants (VW, VREGS, L1D, L2, L3, CORES: fit.ts) and the other parameters'
   * starts; the start becomes the value of `values` nearest to it on each device.
   */
  fit?: string;
  /**
   * Another parameter this one trades against: a move of this one that leaves the point invalid (a register tile
   * past the register file) also moves that one to keep their product, so the search can change a tile's shape at a
   * constant size (NV up, MR down) instead of never trying it.
   */
  trade?: string;
}

export interface Variant {
  name: string;
  backend: 'cpu' | 'cuda';
  language: Language;
  /** The template's text; `templateFile` names it. */
  template: string;
  templateFile: string;
  about: string;
  /** A boolean expression over the parameters a point must satisfy (e.g. threads per block <= 1024). */
  valid?: string;
  /** In order of how much they usually matter: coordinate descent visits them in this order. */
  params: ParamSpec[];
  /** Vector ISAs (a device's `cpu.vector_isa`) this variant is written for; absent: any. */
  isa?: string[];
  /**
   * Points (partial: the rest from the start) to try, in order, while every point measured so far is slower than
   * the reference: ways out of a start that does not suit this machine.
   */
  rescue?: Params[];
  /** The device's constants, once the variant is fitted to a device (fit.ts); the template may name them. */
  constants?: Params;
}

export interface Space {
  problem: string;
  variants: Variant[];
}

/** The repository's `problems/`, found by walking up from this file (works from src/ and a bundled dist/). */
export function defaultProblemsDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'problems')) && existsSync(join(dir, 'pnpm-workspace.yaml'))) return join(dir, 'problems');
    const parent = dirname(dir);
    if (parent === dir) return join(process.cwd(), 'problems');
    dir = parent;
  }
}

type RawVariant = Omit<Variant, 'params' | 'templateFile'> & {
  params: (Omit<ParamSpec, 'tags'> & { tags?: ParamTag[] })[];
};

const cache = new Map<string, Space | null>();

/** The space of a built-in problem, or null when it has no tuner folder. */
export function loadSpace(problemsDir: string, problem: string): Space | null {
  const key = join(problemsDir, problem);
  if (cache.has(key)) return cache.get(key) ?? null;
  const dir = join(key, 'tuner');
  const file = join(dir, 'space.json');
  let space: Space | null = null;
  // A name like `../x` must not escape the catalogue.
  if (!problem.includes('/') && !problem.includes('..') && existsSync(file)) {
    const raw = JSON.parse(readFileSync(file, 'utf8')) as { variants: RawVariant[] };
    const variants = raw.variants.map((v) => ({
      ...v,
      params: v.params.map((p) => ({ ...p, tags: p.tags ?? [] })),
      templateFile: v.template,
      template: readFileSync(join(dir, v.template), 'utf8'),
    }));
    space = { problem, variants };
    validate(space);
  }
  cache.set(key, space);
  return space;
}

function validate(space: Space): void {
  for (const v of space.variants) {
    for (const r of v.rescue ?? []) {
      for (const [k, x] of Object.entries(r)) {
        const p = v.params.find((q) => q.name === k);
        if (!p?.values.some((y) => y === x))
          throw new Error(
            `${space.problem}/tuner/space.json: ${v.name} rescue point sets ${k}=${x}, not one of its values`,
          );
      }
    }
    for (const p of v.params) {
      if (p.trade !== undefined && !v.params.some((q) => q.name === p.trade && q.name !== p.name))
        throw new Error(
          `${space.problem}/tuner/space.json: ${v.name}.${p.name} trades against ${p.trade}, not another parameter`,
        );
      if (!p.values.some((x) => x === p.start)) {
        throw new Error(
          `${space.problem}/tuner/space.json: ${v.name}.${p.name} starts at ${p.start}, not one of its values`,
        );
      }
    }
  }
}

/**
 * The variant for this device: cuda on cuda devices, else the first cpu variant written for the device's vector ISA
 * (or for any ISA). A device that does not report its ISA gets the first variant without an `isa` list.
 */
export function pickVariant(space: Space, backend: 'cpu' | 'cuda', vectorIsa?: string): Variant | null {
  const ofBackend = space.variants.filter((v) => v.backend === backend);
  return (
    ofBackend.find((v) => !v.isa || (vectorIsa !== undefined && v.isa.includes(vectorIsa))) ??
    ofBackend.find((v) => !v.isa) ??
    null
  );
}
