// `kforge sweep start [PROBLEM...] --set NAME`: one agent over a problem set; --wait follows it to its fast_p and
// --min-fast1 / --min-fast-p gate a CI job on it (exit 5 when below).
import type { FastPKey, Sweep } from '@kernelforge/sdk';
import { Command } from 'commander';
import { type Runtime, examples, handle, positiveInt } from '../../core/command.js';
import type { CommandContext } from '../../core/context.js';
import { CliError, UsageError } from '../../core/errors.js';
import { ExitCode } from '../../core/exit-codes.js';
import { defaultDevice } from '../../internal/devices.js';
import { FINAL_SWEEP_STATUSES, fastPLine, gate, missedGates, printSweep, share } from './shared.js';

interface StartOptions {
  set?: string;
  device?: string;
  agent?: string;
  model?: string;
  instruction?: string;
  attempts?: number;
  name?: string;
  wait?: boolean;
  timeout?: number;
  minFast1?: number;
  minFastP?: Array<[FastPKey, number]>;
}

export function sweepStartCommand(runtime: Runtime): Command {
  const command = new Command('start')
    .description('start a sweep: one agent session per problem, scored by fast_p')
    .argument('[problems...]', 'problem names (or give --set)')
    .option(
      '-s, --set <name>',
      'a named problem set: c-abi, pytorch-level1, pytorch-level2, pytorch-level3, or one an admin saved',
    )
    .option('-d, --device <id>', "the device (default: the server's cpu device)")
    .option('--agent <provider>', 'the agent: tuner, openai or anthropic (default tuner)')
    .option('--model <model>', 'the model for --agent')
    .option('-i, --instruction <text>', 'the instruction every session starts from')
    .option('-n, --attempts <n>', 'attempts per problem (default 2)', positiveInt)
    .option('--name <name>', 'a name for the sweep')
    .option('-w, --wait', 'follow the sweep until it is done, then print it')
    .option('--timeout <seconds>', 'with --wait: give up after this long (default 3600)', positiveInt)
    .option('--min-fast1 <share>', 'with --wait: exit 5 when fast_1 is below this share (0 to 1)', share)
    .option('--min-fast-p <P=share>', 'with --wait: exit 5 when fast_P is below the share (repeatable)', gate);
  command.addHelpText(
    'after',
    `
fast_p is the share of ALL the sweep's problems solved correctly and more than p times faster than the reference
(fast_0: the share correct), each from a ranked re-run of the session's best attempt. With --wait the exit code
tells the outcome: 0 done and every --min-fast1 / --min-fast-p met, 5 a minimum missed (or the sweep stopped or
failed), 1 an error or the wait timed out.`,
  );
  examples(command, [
    ['kforge sweep start 19_ReLU 20_LeakyReLU 90_Matrix_transpose -n 2 --wait', 'the tuner over three problems'],
    ['kforge sweep start --set c-abi --agent openai --model gpt-4.1 --wait', 'an LLM over every C-ABI problem'],
    ['kforge sweep start --set c-abi -i "$(cat prompt.txt)" --wait --min-fast1 0.3 --json', 'CI: gate a prompt change'],
    ['kforge sweep start --set c-abi --wait --min-fast-p 0=0.9 --min-fast-p 2=0.1', 'several minimums'],
  ]);
  return handle<[string[]], StartOptions>(runtime, command, start);
}

async function start(ctx: CommandContext, [names]: [string[]], options: StartOptions): Promise<ExitCode> {
  if (names.length > 0 && options.set) throw new UsageError('Give problem names or --set, not both.');
  if (names.length === 0 && !options.set)
    throw new UsageError('Name the problems, or a set with --set.', 'e.g. kforge sweep start --set c-abi');
  if (options.model && !options.agent)
    throw new UsageError('--model needs --agent.', 'e.g. --agent openai --model gpt-4.1');
  const gates: Array<[FastPKey, number]> = [
    ...(options.minFast1 !== undefined ? [['1', options.minFast1] as [FastPKey, number]] : []),
    ...(options.minFastP ?? []),
  ];
  if (gates.length > 0 && !options.wait) throw new UsageError('--min-fast1 and --min-fast-p need --wait.');
  const client = await ctx.client();
  const created = await client.sweeps.create({
    agent: { provider: options.agent ?? 'tuner', ...(options.model ? { model: options.model } : {}) },
    device: options.device ?? (await defaultDevice(client)),
    problems: options.set ? { set: options.set } : names,
    attempts_per_problem: options.attempts ?? 2,
    ...(options.instruction ? { instruction: options.instruction } : {}),
    ...(options.name ? { name: options.name } : {}),
  });
  const { output } = ctx;
  if (!options.wait) {
    if (output.json) output.printJson(created);
    else {
      output.line(created.id);
      output.success(`Started sweep ${created.name}: ${created.problem_count} sessions on ${created.device}.`);
      output.info(`Follow it: kforge sweep show ${created.id}`);
    }
    return ExitCode.ok;
  }
  if (!output.json)
    output.success(`Started sweep ${created.id}: ${created.problem_count} sessions on ${created.device}.`);
  const deadline = Date.now() + (options.timeout ?? 3600) * 1000;
  const pollMs = Number(ctx.env.KFORGE_POLL_MS) || 2000;
  let sweep: Sweep = created;
  let seen = '';
  while (!FINAL_SWEEP_STATUSES.has(sweep.status)) {
    if (Date.now() > deadline) {
      throw new CliError(
        `Sweep ${created.id} is still ${sweep.status} (${sweep.problems_done} of ${sweep.problem_count} done) after ${options.timeout ?? 3600} s.`,
        ExitCode.error,
        'Wait longer with --timeout, or look later with `kforge sweep show`: the sweep goes on.',
      );
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
    sweep = await client.sweeps.get(created.id);
    const progress = `${sweep.problems_done}/${sweep.problem_count} done  ${fastPLine(sweep)}`;
    if (!output.json && progress !== seen) output.info(progress);
    seen = progress;
  }
  if (output.json) output.printJson(sweep);
  else printSweep(ctx, sweep);
  if (sweep.status !== 'completed') {
    if (!output.json) output.error(`The sweep ended ${sweep.status}.`);
    return ExitCode.notAccepted;
  }
  const missed = missedGates(sweep, gates);
  if (missed.length > 0) {
    if (!output.json) output.error(`Below the minimum: ${missed.join('; ')}.`);
    return ExitCode.notAccepted;
  }
  return ExitCode.ok;
}
