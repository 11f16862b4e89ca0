// `kforge sessions start PROBLEM`: a new agent session, optionally followed live.
import { Command } from 'commander';
import { type Runtime, examples, handle } from '../../core/command.js';
import type { CommandContext } from '../../core/context.js';
import type { ExitCode } from '../../core/exit-codes.js';
import { addStartOptions, checkStartOptions, reportStarted, type StartOptions, startFields } from './start-options.js';

export function sessionsStartCommand(runtime: Runtime): Command {
  const command = addStartOptions(
    new Command('start')
      .description('start an agent session on a problem')
      .argument('<problem>', 'the problem name, e.g. 19_ReLU (see `kforge problems list`)'),
    'a name for the session',
  );
  examples(command, [
    ['kforge sessions start 19_ReLU', 'the default agent on the cpu device'],
    ['kforge sessions start 19_ReLU -n 10 -i "vectorise with AVX-512" --watch', 'steer it and follow it'],
    ['kforge sessions start 1_Square_matrix_multiplication_ --agent openai --model gpt-4.1', 'pick an LLM'],
    ['kforge sessions start 19_ReLU --watch --json', 'wait, then print the finished session as JSON'],
    ['kforge sessions start 201_Gemm_GELU_Scale -n 6 --watch', 'a pytorch problem: the tuner writes ModelNew files'],
  ]);
  return handle<[string], StartOptions>(runtime, command, start);
}

async function start(ctx: CommandContext, [problem]: [string], options: StartOptions): Promise<ExitCode> {
  checkStartOptions(options);
  const client = await ctx.client();
  const session = await client.sessions.create({
    problem_name: problem,
    ...(await startFields(client, options)),
    ...(options.name ? { name: options.name } : {}),
  });
  return reportStarted(ctx, client, session, options, 'session');
}
