// `kforge instruct SESSION TEXT`: a new instruction on a session, and the attempts it queues.
import { Command } from 'commander';
import { type Runtime, examples, handle, positiveInt } from '../../core/command.js';
import type { CommandContext } from '../../core/context.js';
import { UsageError } from '../../core/errors.js';
import { ExitCode } from '../../core/exit-codes.js';
import { followUntilDone } from './follow.js';

interface InstructOptions {
  attempts?: number;
  watch?: boolean;
}

export function instructCommand(runtime: Runtime): Command {
  const command = new Command('instruct')
    .description('give a session a new instruction; the agent makes more attempts with it')
    .argument('<session>', 'the session id')
    .argument('<text...>', 'the instruction, e.g. "tile for L1"')
    .option('-n, --attempts <n>', 'how many attempts this instruction may make', positiveInt)
    .option('-w, --watch', 'follow the session until it stops or goes idle');
  examples(command, [
    ['kforge instruct 4f1c... "unroll the inner loop by 4"', 'steer the agent'],
    ['kforge instruct 4f1c... "use OpenMP" -n 3 --watch', 'three attempts, followed live'],
  ]);
  return handle<[string, string[]], InstructOptions>(runtime, command, instruct);
}

async function instruct(
  ctx: CommandContext,
  [id, words]: [string, string[]],
  options: InstructOptions,
): Promise<ExitCode> {
  const text = words.join(' ').trim();
  if (!text) throw new UsageError('The instruction is empty.');
  const client = await ctx.client();
  const created = await client.sessions.createAttempts(id, {
    instruction: text,
    ...(options.attempts ? { max_attempts: options.attempts } : {}),
  });
  const { output } = ctx;
  const numbers = created.generation_attempts.map((a) => a.attempt_number);
  const range =
    numbers.length === 0
      ? 'no attempts'
      : numbers.length === 1
        ? `attempt #${numbers[0]}`
        : `attempts #${Math.min(...numbers)}-#${Math.max(...numbers)}`;
  if (options.watch) {
    if (!output.json) output.success(`Instruction "${created.instruction.name}" queued ${range}.`);
    return followUntilDone(ctx, client, await client.sessions.get(id));
  }
  if (output.json) {
    output.printJson(created);
    return ExitCode.ok;
  }
  output.line(created.instruction.id);
  output.success(`Instruction "${created.instruction.name}" queued ${range} on session ${id}.`);
  output.info(`Follow it: kforge sessions watch ${id}`);
  return ExitCode.ok;
}
