// `kforge sessions restore ID`: brings back a deleted session.
import { Command } from 'commander';
import { type Runtime, examples, handle } from '../../core/command.js';
import type { CommandContext } from '../../core/context.js';
import type { ExitCode } from '../../core/exit-codes.js';
import { reportSession } from './lifecycle.js';

export function sessionsRestoreCommand(runtime: Runtime): Command {
  const command = new Command('restore')
    .description('restore a deleted session')
    .argument('<session>', 'the session id');
  examples(command, [
    ['kforge sessions list --deleted', 'find it'],
    ['kforge sessions restore 4f1c...', 'bring it back'],
  ]);
  return handle<[string], object>(runtime, command, async (ctx: CommandContext, [id]): Promise<ExitCode> => {
    const client = await ctx.client();
    return reportSession(ctx, await client.sessions.restore(id), 'Restored');
  });
}
