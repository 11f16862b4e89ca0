// `kforge problems list`: the catalogue.
import { Command } from 'commander';
import { type Runtime, examples, handle } from '../../core/command.js';
import type { CommandContext } from '../../core/context.js';
import { ExitCode } from '../../core/exit-codes.js';
import { truncate } from '../../output/format.js';

export function problemsListCommand(runtime: Runtime): Command {
  const command = new Command('list').alias('ls').description('list the problems you can generate kernels for');
  examples(command, [
    ['kforge problems list', 'names, titles, levels and backends'],
    ["kforge problems list --json | jq -r '.data[].name'", 'just the names'],
  ]);
  return handle<[], object>(runtime, command, list);
}

async function list(ctx: CommandContext): Promise<ExitCode> {
  const client = await ctx.client({ auth: false });
  const problems = await client.problems.list();
  const { output } = ctx;
  if (output.json) {
    output.printJson(problems);
    return ExitCode.ok;
  }
  if (problems.data.length === 0) {
    output.info('No problems on this server.');
    return ExitCode.ok;
  }
  output.table(problems.data, [
    { header: 'NAME', value: (p) => p.name, color: (t) => output.style.bold(t) },
    { header: 'LEVEL', value: (p) => String(p.level), align: 'right' },
    { header: 'BACKENDS', value: (p) => p.backends.join(',') },
    { header: 'TITLE', value: (p) => truncate(p.title, 60) },
  ]);
  return ExitCode.ok;
}
