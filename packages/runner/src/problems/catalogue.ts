// Loads the built-in catalogue: one folder per problem with problem.json, reference.c and reference.cu.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ProblemDefinitionSchema, type Catalogue, type ProblemDefinition } from './schema.js';
import { validateProblem } from './validate.js';

export function loadProblem(dir: string): ProblemDefinition {
  const where = join(dir, 'problem.json');
  const parsed = ProblemDefinitionSchema.safeParse(JSON.parse(readFileSync(where, 'utf8')));
  if (!parsed.success) throw new Error(`${where}: ${parsed.error.message}`);
  validateProblem(parsed.data, where);
  const cu = join(dir, 'reference.cu');
  return {
    ...parsed.data,
    reference_c: readFileSync(join(dir, 'reference.c'), 'utf8'),
    ...(existsSync(cu) ? { reference_cu: readFileSync(cu, 'utf8') } : {}),
    custom: false,
    dir,
  };
}

/** Every problem under `dir`, by name. Throws on the first invalid one: a broken catalogue is a bug. */
export function loadCatalogue(dir: string): Catalogue {
  const problems = new Map<string, ProblemDefinition>();
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    if (!entry.isDirectory() || !existsSync(join(dir, entry.name, 'problem.json'))) continue;
    const p = loadProblem(join(dir, entry.name));
    if (p.name !== entry.name) throw new Error(`${dir}/${entry.name}: problem.json names it "${p.name}"`);
    problems.set(p.name, p);
  }
  return problems;
}
