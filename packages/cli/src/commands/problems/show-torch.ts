// `kforge problems show` for a pytorch problem: its constants as written and as scaled per device, inputs, source.
import type { Problem, TorchValue } from '@kernelforge/sdk';
import type { CommandContext } from '../../core/context.js';
import { ExitCode } from '../../core/exit-codes.js';

const constants = (c: Record<string, number>) =>
  Object.entries(c)
    .map(([k, v]) => `${k}=${v}`)
    .join(', ') || '-';

const value = (v: TorchValue) =>
  v.type === 'tensor' ? `${v.dtype ?? 'tensor'}[${(v.shape ?? []).join(', ')}]` : `${v.type} ${v.repr ?? ''}`.trim();

const mib = (bytes: number) => `${Math.round((bytes / (1 << 20)) * 10) / 10} MiB`;

export function showTorch(ctx: CommandContext, problem: Problem): ExitCode {
  const { output } = ctx;
  const { style } = output;
  const torch = problem.torch;
  const rows: [string, string][] = [
    ['Kind', 'pytorch (KernelBench format: class Model, get_inputs, get_init_inputs)'],
    ['Level', String(problem.level)],
    ['Languages', `${problem.languages.join(', ')} (a .py file defining class ModelNew)`],
    ['Backends', problem.backends.join(', ')],
    ['Tolerance', `atol ${problem.tolerance.atol}, rtol ${problem.tolerance.rtol}`],
  ];
  if (torch) {
    rows.push(['Constants', `${constants(torch.constants)} (as written)`]);
    rows.push(['Scaling', torch.scaling_note]);
    for (const [kind, sizes] of Object.entries(torch.sizes)) {
      const changed = Object.fromEntries(Object.entries(sizes.constants).filter(([k, v]) => torch.constants[k] !== v));
      rows.push([
        `On ${kind}`,
        `${Object.keys(changed).length ? constants(changed) : "the file's own sizes"} (budget ${mib(sizes.budget_bytes)}${
          sizes.fits ? '' : ', does not fit: unavailable there'
        })`,
      ]);
      const bench = sizes.benchmark[0];
      if (bench) {
        rows.push([`  inputs`, bench.inputs.map(value).join(', ') || '-']);
        if (bench.init_inputs.length) rows.push([`  init args`, bench.init_inputs.map(value).join(', ')]);
        if (bench.outputs.length) rows.push([`  outputs`, bench.outputs.map(value).join(', ')]);
        rows.push([`  bytes`, mib(bench.bytes)]);
      }
      if (sizes.test.length)
        rows.push([`  test cases`, sizes.test.map((c) => `${c.name} (${constants(c.constants)})`).join('; ')]);
    }
    rows.push([
      'Origin',
      torch.origin === 'builtin' ? 'the built-in catalogue' : 'an operator folder (KFORGE_PROBLEM_DIRS)',
    ]);
  }
  output.fields(rows);
  if (problem.description.trim()) {
    output.line();
    output.line(problem.description.trim());
  }
  output.line();
  output.line(style.bold('Reference source'));
  output.line((problem.reference_source ?? '').trimEnd());
  output.line();
  output.info(
    `Start from it: kforge problems show ${problem.name} --reference > model_new.py, rename Model to ModelNew, then kforge submit ${problem.name} model_new.py --wait.`,
  );
  return ExitCode.ok;
}
