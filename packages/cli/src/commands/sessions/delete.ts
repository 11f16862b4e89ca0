// `kforge sessions delete ID`: hides a session (restore brings it back).
import { Command } from 'commander';
import { type Runtime, examples, handle } from '../../core/command.js';
import type { CommandContext } from '../../core/context.js';
import { ExitCode } from '../../core/exit-codes.js';

export function sessionsDeleteCommand(runtime: Runtime): Command {
  const command = new Command('delete')
    .alias('rm')
    .description('delete a session (it stops; `kforge sessions restore` brings it back)')
    .argument('<session>', 'the session id');
  examples(command, [['kforge sessions delete 4f1c...', 'delete it']]);
  return handle<[string], object>(runtime, command, async (ctx: CommandContext, [id]): Promise<ExitCode> => {
    const client = await ctx.client();
    const body = await client.sessions.delete(id);
    if (ctx.output.json) {
      // The server's answer when it has one; otherwise a small record of what happened.
      ctx.output.printJson(body && typeof body === 'object' ? body : { id, deleted: true });
    } else {
      ctx.output.success(`Deleted session ${id}. Undo: kforge sessions restore ${id}`);
    }
    return ExitCode.ok;
  });
}
