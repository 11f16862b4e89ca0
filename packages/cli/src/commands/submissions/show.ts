// `kforge submissions show ID`: one submission's verdict and figures, or its build facts (--build-facts).
import { Command } from 'commander';
import { type Runtime, examples, handle } from '../../core/command.js';
import type { CommandContext } from '../../core/context.js';
import { ExitCode } from '../../core/exit-codes.js';
import { formatMs, formatSpeedup } from '../../output/format.js';
import { printBuildFacts, buildFactsJson } from '../../output/build-facts.js';

interface ShowOptions {
  buildFacts?: boolean;
}

export function submissionsShowCommand(runtime: Runtime): Command {
  const command = new Command('show')
    .description("print a submission's verdict and figures, or its build facts")
    .argument('<submission>', 'the submission id')
    .option(
      '--build-facts',
      'its build facts: assembly with the hot loop, vectorization report, counters (or why none)',
    );
  examples(command, [
    ['kforge submissions show 7b2e...', 'its verdict, time and speedup'],
    ['kforge submissions show 7b2e... --build-facts', 'why it is as fast as it is: assembly, vectorization'],
    ['kforge submissions show 7b2e... --json', 'the whole submission with its evaluation'],
  ]);
  return handle<[string], ShowOptions>(runtime, command, show);
}

async function show(ctx: CommandContext, [id]: [string], options: ShowOptions): Promise<ExitCode> {
  const client = await ctx.client();
  const detail = await client.leaderboards.submission(id);
  const { output } = ctx;
  if (options.buildFacts) {
    if (output.json) output.printJson(buildFactsJson(detail.evaluation_state));
    else printBuildFacts(output, `Submission ${detail.id}`, detail.evaluation_state);
    return ExitCode.ok;
  }
  if (output.json) {
    output.printJson(detail);
    return ExitCode.ok;
  }
  const b = detail.evaluation_state?.benchmarking_result;
  output.fields([
    ['Problem', `${detail.problem_name} on ${detail.device}`],
    ['Result', detail.status === 'completed' ? (detail.verdict ?? 'completed') : detail.status],
    ...(detail.evaluation_state ? ([['Message', detail.evaluation_state.message]] as [string, string][]) : []),
    ...(b
      ? ([['Time', `${formatMs(b.optimized_time)} (${formatSpeedup(b.speedup, b.speedup_interval)})`]] as [
          string,
          string,
        ][])
      : []),
  ]);
  return ExitCode.ok;
}
