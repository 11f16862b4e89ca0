// `kforge sessions rename ID NAME`: renames a session (and optionally relabels it).
import { Command } from 'commander';
import { type Runtime, examples, handle } from '../../core/command.js';
import type { CommandContext } from '../../core/context.js';
import { UsageError } from '../../core/errors.js';
import type { ExitCode } from '../../core/exit-codes.js';
import { reportSession } from './lifecycle.js';

interface RenameOptions {
  label?: string;
}

export function sessionsRenameCommand(runtime: Runtime): Command {
  const command = new Command('rename')
    .description('rename a session')
    .argument('<session>', 'the session id')
    .argument('<name>', 'the new name')
    .option('--label <label>', 'also set the label (the title the web app shows)');
  examples(command, [['kforge sessions rename 4f1c... "relu avx512"', 'a name you will recognise']]);
  return handle<[string, string], RenameOptions>(
    runtime,
    command,
    async (ctx: CommandContext, [id, name], options): Promise<ExitCode> => {
      if (!name.trim()) throw new UsageError('The new name is empty.');
      const client = await ctx.client();
      const session = await client.sessions.update(id, {
        name: name.trim(),
        ...(options.label ? { label: options.label.trim() } : {}),
      });
      return reportSession(ctx, session, 'Renamed');
    },
  );
}
