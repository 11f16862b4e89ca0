// The starting point of a pytorch solution: the problem's KernelBench reference with `Model` renamed `ModelNew`.

/**
 * The reference file as a solution a user can submit as is: `class Model(` becomes `class ModelNew(` and
 * `super(Model, self)` becomes `super(ModelNew, self)`; everything else (imports, constants, get_inputs,
 * get_init_inputs) stays, so the runner finds the same constructor and forward.
 */
export function modelNewTemplate(reference: string): string {
  return reference
    .replace(/^(\s*)class Model\s*\(/gm, '$1class ModelNew(')
    .replace(/\bsuper\(\s*Model\s*,\s*self\s*\)/g, 'super(ModelNew, self)');
}
