// `kforge sessions stop ID`: stops the agent; evaluated attempts are kept.
import { Command } from 'commander';
import { type Runtime, examples, handle } from '../../core/command.js';
import type { CommandContext } from '../../core/context.js';
import type { ExitCode } from '../../core/exit-codes.js';
import { reportSession } from './lifecycle.js';

export function sessionsStopCommand(runtime: Runtime): Command {
  const command = new Command('stop')
    .description('stop a session now; attempts already evaluated are kept')
    .argument('<session>', 'the session id');
  examples(command, [['kforge sessions stop 4f1c...', 'stop generating']]);
  return handle<[string], object>(runtime, command, async (ctx: CommandContext, [id]): Promise<ExitCode> => {
    const client = await ctx.client();
    return reportSession(ctx, await client.sessions.stop(id), 'Stopped');
  });
}
