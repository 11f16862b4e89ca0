// What stop, delete and restore share: one call on a session id and a line saying what happened.
import type { AgentSession } from '@kernelforge/sdk';
import type { CommandContext } from '../../core/context.js';
import { ExitCode } from '../../core/exit-codes.js';

export async function reportSession(ctx: CommandContext, session: AgentSession, done: string): Promise<ExitCode> {
  if (ctx.output.json) ctx.output.printJson(session);
  else
    ctx.output.success(
      `${done} session ${session.name} (${session.id}); it is ${session.deleted_at ? 'deleted' : session.status}.`,
    );
  return ExitCode.ok;
}
