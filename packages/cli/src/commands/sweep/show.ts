// `kforge sweep show ID`: a sweep's status, fast_p and per-problem results.
import { Command } from 'commander';
import { type Runtime, examples, handle } from '../../core/command.js';
import type { CommandContext } from '../../core/context.js';
import { ExitCode } from '../../core/exit-codes.js';
import { printSweep } from './shared.js';

export function sweepShowCommand(runtime: Runtime): Command {
  const command = new Command('show')
    .description("a sweep's status, fast_p and per-problem results")
    .argument('<id>', 'the sweep id (see `kforge sweep list`)');
  examples(command, [
    ['kforge sweep show SWEEP', 'the table'],
    ['kforge sweep show SWEEP --json', 'the API shape, as the web page shows it'],
  ]);
  return handle<[string]>(runtime, command, show);
}

async function show(ctx: CommandContext, [id]: [string]): Promise<ExitCode> {
  const sweep = await (await ctx.client()).sweeps.get(id);
  if (ctx.output.json) ctx.output.printJson(sweep);
  else printSweep(ctx, sweep);
  return ExitCode.ok;
}
