// Turns a user's custom problem (sdk CustomProblemInput) into a definition the same harness evaluates.
import type { CustomProblemInput } from '@kernelforge/sdk';
import { ProblemDefinitionSchema, type ProblemDefinition } from './schema.js';
import { validateProblem } from './validate.js';

export function customProblemDefinition(name: string, input: CustomProblemInput): ProblemDefinition {
  if (input.language !== undefined && input.language !== 'c')
    throw new Error('a custom reference must be C (it is the cpu reference outputs are checked against)');
  const parsed = ProblemDefinitionSchema.parse({
    name: name.replace(/[^A-Za-z0-9_]/g, '_') || 'custom',
    title: name,
    level: 0,
    description: input.description ?? 'A custom problem.',
    signature: input.signature,
    cases: { test: input.cases.test, benchmark: input.cases.benchmark, ranked: input.cases.benchmark },
    tolerance: input.tolerance ?? { atol: 1e-4, rtol: 1e-4 },
    cost: input.cost ?? { flops: '0', bytes: '0' },
    backends: ['cpu'],
    languages: ['c', 'cpp'],
  });
  validateProblem(parsed, `custom problem ${name}`);
  return { ...parsed, reference_c: input.reference_source, custom: true };
}
