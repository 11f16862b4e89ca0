// `kforge tokens list`: your API tokens (never the tokens themselves).
import { Command } from 'commander';
import { type Runtime, examples, handle } from '../../core/command.js';
import type { CommandContext } from '../../core/context.js';
import { ExitCode } from '../../core/exit-codes.js';
import { formatDate } from '../../output/format.js';

export function tokensListCommand(runtime: Runtime): Command {
  const command = new Command('list').alias('ls').description('list your API tokens');
  examples(command, [['kforge tokens list', 'names, prefixes, last use and expiry']]);
  return handle<[], object>(runtime, command, async (ctx: CommandContext): Promise<ExitCode> => {
    const client = await ctx.client();
    const tokens = await client.tokens.list();
    const { output } = ctx;
    if (output.json) {
      output.printJson(tokens);
      return ExitCode.ok;
    }
    if (tokens.data.length === 0) {
      output.info('No API tokens. Create one with `kforge tokens create NAME`.');
      return ExitCode.ok;
    }
    output.table(tokens.data, [
      { header: 'ID', value: (t) => t.id },
      { header: 'NAME', value: (t) => t.name, color: (t) => output.style.bold(t) },
      { header: 'PREFIX', value: (t) => `${t.prefix}…` },
      { header: 'SCOPES', value: (t) => t.scopes.join(',') },
      { header: 'CREATED', value: (t) => formatDate(t.created_at) },
      { header: 'LAST USED', value: (t) => formatDate(t.last_used_at) },
      { header: 'EXPIRES', value: (t) => (t.expires_at ? formatDate(t.expires_at) : 'never') },
    ]);
    return ExitCode.ok;
  });
}
