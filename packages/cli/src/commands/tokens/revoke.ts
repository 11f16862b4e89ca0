// `kforge tokens revoke ID`: the token stops working at once.
import { Command } from 'commander';
import { type Runtime, examples, handle } from '../../core/command.js';
import type { CommandContext } from '../../core/context.js';
import { ExitCode } from '../../core/exit-codes.js';

export function tokensRevokeCommand(runtime: Runtime): Command {
  const command = new Command('revoke')
    .description('revoke an API token')
    .argument('<id>', 'the token id (see `kforge tokens list`)');
  examples(command, [['kforge tokens revoke 7d0e...', 'it stops working at once']]);
  return handle<[string], object>(runtime, command, async (ctx: CommandContext, [id]): Promise<ExitCode> => {
    const client = await ctx.client();
    const body = await client.tokens.revoke(id);
    if (ctx.output.json) ctx.output.printJson(body && typeof body === 'object' ? body : { id, revoked: true });
    else ctx.output.success(`Revoked token ${id}.`);
    return ExitCode.ok;
  });
}
