// `kforge tokens create NAME`: a new API token, printed once.
import { Command } from 'commander';
import { type Runtime, examples, handle, positiveInt } from '../../core/command.js';
import type { CommandContext } from '../../core/context.js';
import { ExitCode } from '../../core/exit-codes.js';

interface CreateOptions {
  expiresInDays?: number;
}

export function tokensCreateCommand(runtime: Runtime): Command {
  const command = new Command('create')
    .description('create an API token (shown only this once) for CI or another machine')
    .argument('<name>', 'what it is for, e.g. "github-actions"')
    .option('--expires-in-days <days>', 'it stops working after this many days (default: never)', positiveInt);
  examples(command, [
    ['kforge tokens create github-actions --expires-in-days 90', 'a token for CI'],
    ['kforge tokens create laptop --json | jq -r .token', 'only the token'],
  ]);
  return handle<[string], CreateOptions>(
    runtime,
    command,
    async (ctx: CommandContext, [name], options): Promise<ExitCode> => {
      const client = await ctx.client();
      const token = await client.tokens.create({
        name,
        ...(options.expiresInDays ? { expires_in_days: options.expiresInDays } : {}),
      });
      const { output } = ctx;
      if (output.json) {
        output.printJson(token);
        return ExitCode.ok;
      }
      output.line(token.token);
      output.success(`Created token "${token.name}" (${token.id}). Copy it now: it is not shown again.`);
      output.info('Use it with `kforge login --token ...` or KFORGE_TOKEN in CI.');
      return ExitCode.ok;
    },
  );
}
