// Checks that go beyond the schema: shapes and cost formulas use only size names, cases give every size.
import { evalExpr, namesIn } from './expr.js';
import type { CaseDef, ProblemJson } from './schema.js';

export function validateProblem(p: Pick<ProblemJson, 'signature' | 'cases' | 'cost'>, where: string): void {
  const sizeNames = p.signature.filter((a) => a.role === 'size' || a.role === 'scalar').map((a) => a.name);
  const fail = (msg: string): never => {
    throw new Error(`${where}: ${msg}`);
  };
  for (const a of p.signature) {
    const isPtr = a.type.endsWith('*');
    if (isPtr && (a.role === 'size' || a.role === 'scalar'))
      fail(`argument ${a.name} is a pointer but has role ${a.role}`);
    if (!isPtr && a.role !== 'size' && a.role !== 'scalar')
      fail(`argument ${a.name} is a value but has role ${a.role}`);
    if (isPtr && (!a.shape || a.shape.length === 0)) fail(`pointer argument ${a.name} needs a shape`);
    for (const dim of a.shape ?? [])
      for (const n of namesIn(dim)) if (!sizeNames.includes(n)) fail(`shape of ${a.name} uses unknown size "${n}"`);
  }
  if (!p.signature.some((a) => a.role === 'out' || a.role === 'inout')) fail('the signature has no output');
  for (const f of [p.cost.flops, p.cost.bytes])
    for (const n of namesIn(f)) if (!sizeNames.includes(n)) fail(`cost formula "${f}" uses unknown size "${n}"`);
  const all: CaseDef[] = [
    ...p.cases.test,
    ...p.cases.benchmark,
    ...('ranked' in p.cases ? (p.cases.ranked as CaseDef[]) : []),
  ];
  for (const c of all) {
    for (const n of sizeNames) if (c.sizes[n] === undefined) fail(`case ${c.name} does not give "${n}"`);
    for (const a of p.signature) {
      if (!a.shape) continue;
      const count = elementCount(a.shape, c.sizes);
      if (!Number.isInteger(count) || count < 1) fail(`case ${c.name}: ${a.name} would have ${count} elements`);
    }
  }
}

export function elementCount(shape: readonly string[], sizes: Readonly<Record<string, number>>): number {
  return shape.reduce((n, dim) => n * evalExpr(dim, sizes), 1);
}
