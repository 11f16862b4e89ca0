// `kforge sessions watch ID`: a live view until the session stops or goes idle; q or Ctrl-C leaves it running.
import { Command } from 'commander';
import { type Runtime, examples, handle } from '../../core/command.js';
import type { CommandContext } from '../../core/context.js';
import type { ExitCode } from '../../core/exit-codes.js';
import { followUntilDone } from './follow.js';

export function sessionsWatchCommand(runtime: Runtime): Command {
  const command = new Command('watch')
    .description("follow a session live: its attempts and the agent's streamed text")
    .argument('<session>', 'the session id');
  command.addHelpText(
    'after',
    `
On a terminal this is a live view; press q (or Ctrl-C) to leave it, the session keeps running.
In a pipe or with CI set it prints a line per change. With --json it waits and prints the finished session.
It ends by itself when the session stops or goes idle.`,
  );
  examples(command, [
    ['kforge sessions watch 4f1c...', 'the live view'],
    ['kforge sessions watch 4f1c... --json > session.json', 'wait for the end, keep the result'],
  ]);
  return handle<[string], object>(runtime, command, async (ctx: CommandContext, [id]): Promise<ExitCode> => {
    const client = await ctx.client();
    return followUntilDone(ctx, client, await client.sessions.get(id));
  });
}
