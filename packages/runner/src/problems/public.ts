// The API's view of a problem: no ranked sizes, plus the prototype and the reference source.
import type { Problem } from '@kernelforge/sdk';
import { prototypeOf } from './prototype.js';
import type { ProblemDefinition } from './schema.js';

export const MODEL_NEW_PROTOTYPE =
  'class ModelNew(nn.Module): the same __init__(*get_init_inputs()) and forward(*get_inputs()) as Model';

export function toPublicProblem(def: ProblemDefinition): Problem {
  if (def.kind === 'pytorch' && def.torch)
    return {
      name: def.name,
      title: def.title,
      level: def.level,
      description: def.description,
      signature: [],
      prototype: MODEL_NEW_PROTOTYPE,
      cases: {
        test: def.cases.test.map((c) => ({ name: c.name, sizes: { ...c.sizes } })),
        benchmark: def.cases.benchmark.map((c) => ({ name: c.name, sizes: { ...c.sizes } })),
      },
      distributions: [...def.distributions],
      tolerance: { ...def.tolerance },
      cost: { ...def.cost },
      backends: [...def.backends],
      languages: [...def.languages],
      reference_source: def.torch.source,
      custom: false,
      kind: 'pytorch',
      torch: structuredClone(def.torch.info),
    };
  return {
    name: def.name,
    title: def.title,
    level: def.level,
    description: def.description,
    signature: def.signature.map((a) => ({
      name: a.name,
      type: a.type,
      role: a.role,
      ...(a.shape ? { shape: [...a.shape] } : {}),
    })),
    prototype: prototypeOf(def.signature),
    cases: {
      test: def.cases.test.map((c) => ({ name: c.name, sizes: { ...c.sizes } })),
      benchmark: def.cases.benchmark.map((c) => ({ name: c.name, sizes: { ...c.sizes } })),
    },
    distributions: [...def.distributions],
    tolerance: { ...def.tolerance },
    cost: { ...def.cost },
    backends: [...def.backends],
    languages: [...def.languages],
    reference_source: def.reference_c,
    custom: def.custom,
    kind: 'c',
  };
}
