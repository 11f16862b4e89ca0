// `kforge sessions start PROBLEM`: a new agent session, optionally followed live.
import { Command } from 'commander';
import { type Runtime, examples, handle, positiveInt } from '../../core/command.js';
import type { CommandContext } from '../../core/context.js';
import { UsageError } from '../../core/errors.js';
import { ExitCode } from '../../core/exit-codes.js';
import { defaultDevice } from '../../internal/devices.js';
import { followUntilDone } from './follow.js';

interface StartOptions {
  device?: string;
  agent?: string;
  model?: string;
  instruction?: string;
  attempts?: number;
  name?: string;
  watch?: boolean;
}

export function sessionsStartCommand(runtime: Runtime): Command {
  const command = new Command('start')
    .description('start an agent session on a problem')
    .argument('<problem>', 'the problem name, e.g. 19_ReLU (see `kforge problems list`)')
    .option('-d, --device <id>', "the device (default: the server's cpu device; see `kforge devices`)")
    .option('--agent <provider>', 'the agent: tuner, openai or anthropic (default: the server default)')
    .option('--model <model>', 'the model for --agent')
    .option('-i, --instruction <text>', 'what the agent should try first')
    .option('-n, --attempts <n>', 'how many attempts this instruction may make', positiveInt)
    .option('--name <name>', 'a name for the session')
    .option('-w, --watch', 'follow the session live until it stops or goes idle');
  examples(command, [
    ['kforge sessions start 19_ReLU', 'the default agent on the cpu device'],
    ['kforge sessions start 19_ReLU -n 10 -i "vectorise with AVX-512" --watch', 'steer it and follow it'],
    ['kforge sessions start 1_Square_matrix_multiplication_ --agent openai --model gpt-4.1', 'pick an LLM'],
    ['kforge sessions start 19_ReLU --watch --json', 'wait, then print the finished session as JSON'],
  ]);
  return handle<[string], StartOptions>(runtime, command, start);
}

async function start(ctx: CommandContext, [problem]: [string], options: StartOptions): Promise<ExitCode> {
  if (options.model && !options.agent)
    throw new UsageError('--model needs --agent.', 'e.g. --agent openai --model gpt-4.1');
  const client = await ctx.client();
  const device = options.device ?? (await defaultDevice(client));
  const session = await client.sessions.create({
    problem_name: problem,
    device,
    ...(options.instruction ? { instruction: options.instruction } : {}),
    ...(options.agent
      ? { agent: { provider: options.agent, ...(options.model ? { model: options.model } : {}) } }
      : {}),
    ...(options.attempts ? { max_attempts: options.attempts } : {}),
    ...(options.name ? { name: options.name } : {}),
  });
  const { output } = ctx;
  if (options.watch) {
    if (!output.json) output.success(`Started session ${session.id} (${session.problem_name} on ${session.device}).`);
    return followUntilDone(ctx, client, session);
  }
  if (output.json) {
    output.printJson(session);
    return ExitCode.ok;
  }
  output.line(session.id);
  output.success(
    `Started session ${session.name} on ${session.problem_name} (${session.device}, agent ${session.agent.provider}).`,
  );
  output.info(`Follow it: kforge sessions watch ${session.id}`);
  return ExitCode.ok;
}
