// `kforge sweep list`: your sweeps (a superuser: everyone's), newest first.
import { Command } from 'commander';
import { type Runtime, examples, handle, nonNegativeInt, positiveInt } from '../../core/command.js';
import type { CommandContext } from '../../core/context.js';
import { ExitCode } from '../../core/exit-codes.js';
import { colorStatus, formatDate, formatSpeedup, paintCell, truncate } from '../../output/format.js';
import { percent } from './shared.js';

interface ListOptions {
  limit?: number;
  offset?: number;
}

export function sweepListCommand(runtime: Runtime): Command {
  const command = new Command('list')
    .alias('ls')
    .description('list your sweeps, newest first (superusers: every sweep)')
    .option('--limit <n>', 'sweeps per page (default 50)', positiveInt)
    .option('--offset <n>', 'skip this many sweeps', nonNegativeInt);
  examples(command, [
    ['kforge sweep list', 'the newest 50'],
    ['kforge sweep list --json', 'as {data, count}'],
  ]);
  return handle<[], ListOptions>(runtime, command, list);
}

async function list(ctx: CommandContext, _args: [], options: ListOptions): Promise<ExitCode> {
  const client = await ctx.client();
  const page = await client.sweeps.list({
    ...(options.limit ? { limit: options.limit } : {}),
    ...(options.offset !== undefined ? { offset: options.offset } : {}),
  });
  const { output } = ctx;
  if (output.json) {
    output.printJson({ data: page.data, count: page.count });
    return ExitCode.ok;
  }
  if (page.data.length === 0) {
    output.info('No sweeps yet. Start one with `kforge sweep start --set c-abi`.');
    return ExitCode.ok;
  }
  const { style } = output;
  output.table(page.data, [
    { header: 'ID', value: (s) => s.id },
    { header: 'NAME', value: (s) => truncate(s.name, 30), color: (t) => style.bold(t) },
    { header: 'AGENT', value: (s) => `${s.agent.provider}${s.agent.model ? ` ${s.agent.model}` : ''}` },
    { header: 'STATUS', value: (s) => s.status, color: (t) => paintCell(t, (text) => colorStatus(style, text)) },
    { header: 'DONE', value: (s) => `${s.problems_done}/${s.problem_count}`, align: 'right' },
    { header: 'FAST_0', value: (s) => percent(s.fast_p['0']), align: 'right' },
    { header: 'FAST_1', value: (s) => percent(s.fast_p['1']), align: 'right' },
    { header: 'FAST_1_POINT', value: (s) => percent(s.fast_p_point['1']), align: 'right' },
    { header: 'GEOMEAN', value: (s) => formatSpeedup(s.geomean_speedup), align: 'right' },
    { header: 'CREATED', value: (s) => formatDate(s.created_at) },
  ]);
  return ExitCode.ok;
}
