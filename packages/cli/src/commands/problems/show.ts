// `kforge problems show NAME`: what a candidate must compute, with its prototype and cases.
import { Command } from 'commander';
import { type Runtime, examples, handle } from '../../core/command.js';
import type { CommandContext } from '../../core/context.js';
import { showTorch } from './show-torch.js';
import { ExitCode } from '../../core/exit-codes.js';

interface ShowOptions {
  reference?: boolean;
}

export function problemsShowCommand(runtime: Runtime): Command {
  const command = new Command('show')
    .description('show a problem: its prototype, cases, tolerance and backends')
    .argument('<name>', 'the problem name, e.g. 19_ReLU')
    .option('--reference', 'print only the reference source (to stdout)');
  examples(command, [
    ['kforge problems show 19_ReLU', 'the prototype a candidate must define'],
    ['kforge problems show 19_ReLU --reference > relu.c', 'start from the reference'],
    ['kforge problems show 201_Gemm_GELU_Scale', 'a pytorch problem: constants, scaled sizes, input shapes, source'],
  ]);
  command.addHelpText(
    'after',
    `
For a pytorch problem (a KernelBench-format file) it shows the module's size constants as the file writes them
and as scaled to fit each kind of device, the input shapes, and the reference source; a candidate is a .py file
defining class ModelNew with the same constructor and forward (\`kforge submit NAME model_new.py\`).`,
  );
  return handle<[string], ShowOptions>(runtime, command, show);
}

async function show(ctx: CommandContext, [name]: [string], options: ShowOptions): Promise<ExitCode> {
  const client = await ctx.client({ auth: false });
  const problem = await client.problems.get(name);
  const { output } = ctx;
  if (output.json) {
    output.printJson(problem);
    return ExitCode.ok;
  }
  if (options.reference) {
    output.line((problem.reference_source ?? '').trimEnd());
    return ExitCode.ok;
  }
  const { style } = output;
  const sizes = (cases: { name: string; sizes: Record<string, number> }[]) =>
    cases
      .map(
        (c) =>
          `${c.name} (${Object.entries(c.sizes)
            .map(([k, v]) => `${k}=${v}`)
            .join(', ')})`,
      )
      .join('; ') || '-';
  output.line(`${style.bold(problem.name)}  ${problem.title}`);
  output.line();
  if (problem.kind === 'pytorch') return showTorch(ctx, problem);
  output.fields([
    ['Level', String(problem.level)],
    ['Prototype', style.cyan(problem.prototype)],
    ['Backends', problem.backends.join(', ')],
    ['Languages', problem.languages.join(', ')],
    ['Tolerance', `atol ${problem.tolerance.atol}, rtol ${problem.tolerance.rtol}`],
    ['Test cases', sizes(problem.cases.test)],
    ['Benchmark', sizes(problem.cases.benchmark)],
    ['Cost', `flops ${problem.cost.flops}; bytes ${problem.cost.bytes}`],
  ]);
  if (problem.description.trim()) {
    output.line();
    output.line(problem.description.trim());
  }
  return ExitCode.ok;
}
