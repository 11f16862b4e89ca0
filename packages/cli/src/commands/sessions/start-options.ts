// What `sessions start` and `sessions custom` share: the agent, instruction and budget options, turning them into
// request fields, and reporting (or following) the session they started.
import type { AgentSession, KernelforgeClient } from '@kernelforge/sdk';
import type { Command } from 'commander';
import { positiveInt } from '../../core/command.js';
import type { CommandContext } from '../../core/context.js';
import { UsageError } from '../../core/errors.js';
import { ExitCode } from '../../core/exit-codes.js';
import { defaultDevice } from '../../internal/devices.js';
import { followUntilDone } from './follow.js';

export interface StartOptions {
  device?: string;
  agent?: string;
  model?: string;
  instruction?: string;
  attempts?: number;
  name?: string;
  watch?: boolean;
}

export function addStartOptions(command: Command, nameHelp: string): Command {
  return command
    .option('-d, --device <id>', "the device (default: the server's cpu device; see `kforge devices`)")
    .option('--agent <provider>', 'the agent: tuner, openai or anthropic (default: the server default)')
    .option('--model <model>', 'the model for --agent')
    .option('-i, --instruction <text>', 'what the agent should try first')
    .option('-n, --attempts <n>', 'how many attempts this instruction may make', positiveInt)
    .option('--name <name>', nameHelp)
    .option('-w, --watch', 'follow the session live until it stops or goes idle');
}

export function checkStartOptions(options: StartOptions): void {
  if (options.model && !options.agent)
    throw new UsageError('--model needs --agent.', 'e.g. --agent openai --model gpt-4.1');
}

/** The request fields the options give (device resolved to the server's cpu device when not given). */
export async function startFields(client: KernelforgeClient, options: StartOptions) {
  return {
    device: options.device ?? (await defaultDevice(client)),
    ...(options.instruction ? { instruction: options.instruction } : {}),
    ...(options.agent
      ? { agent: { provider: options.agent, ...(options.model ? { model: options.model } : {}) } }
      : {}),
    ...(options.attempts ? { max_attempts: options.attempts } : {}),
  };
}

/** Follows the new session (--watch), or prints it: JSON, or its id and how to follow it. */
export async function reportStarted(
  ctx: CommandContext,
  client: KernelforgeClient,
  session: AgentSession,
  options: StartOptions,
  what: string,
): Promise<ExitCode> {
  const { output } = ctx;
  if (options.watch) {
    if (!output.json) output.success(`Started ${what} ${session.id} (${session.problem_name} on ${session.device}).`);
    return followUntilDone(ctx, client, session);
  }
  if (output.json) {
    output.printJson(session);
    return ExitCode.ok;
  }
  output.line(session.id);
  output.success(
    `Started ${what} ${session.name} on ${session.problem_name} (${session.device}, agent ${session.agent.provider}).`,
  );
  output.info(`Follow it: kforge sessions watch ${session.id}`);
  return ExitCode.ok;
}
