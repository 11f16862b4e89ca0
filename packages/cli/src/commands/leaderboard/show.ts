// `kforge leaderboard [PROBLEM]`: the top times of one problem, or of every problem.
import type { Leaderboard } from '@kernelforge/sdk';
import { Command } from 'commander';
import { type Runtime, examples, handle, positiveInt } from '../../core/command.js';
import type { CommandContext } from '../../core/context.js';
import { ExitCode } from '../../core/exit-codes.js';
import type { Output } from '../../output/output.js';
import { formatDate, formatMsInterval, formatSpeedup } from '../../output/format.js';

interface LeaderboardOptions {
  limit?: number;
  device?: string;
}

export function leaderboardCommand(runtime: Runtime): Command {
  const command = new Command('leaderboard')
    .description("show a problem's leaderboard (one row per user and device, their best), or every problem's top 3")
    .argument('[problem]', 'the problem name; leave out for all problems')
    .option('--limit <n>', 'rows per problem (default 50 for one problem, 3 for all)', positiveInt)
    .option('-d, --device <id>', 'only this device');
  examples(command, [
    ['kforge leaderboard', "every problem's top 3"],
    ['kforge leaderboard 19_ReLU --limit 10', 'the top 10 of one problem'],
    ['kforge leaderboard 19_ReLU --device cpu-x86_64 --json', 'as JSON, e.g. in CI'],
  ]);
  return handle<[string | undefined], LeaderboardOptions>(runtime, command, show);
}

async function show(
  ctx: CommandContext,
  [problem]: [string | undefined],
  options: LeaderboardOptions,
): Promise<ExitCode> {
  const client = await ctx.client({ auth: false });
  const params = {
    ...(options.limit ? { limit: options.limit } : {}),
    ...(options.device ? { device: options.device } : {}),
  };
  const { output } = ctx;
  if (problem) {
    const board = await client.leaderboards.get(problem, params);
    if (output.json) output.printJson(board);
    else printBoard(output, board, true);
    return ExitCode.ok;
  }
  const boards = await client.leaderboards.list(params);
  if (output.json) {
    output.printJson(boards);
    return ExitCode.ok;
  }
  if (boards.data.length === 0) output.info('No leaderboards yet.');
  boards.data.forEach((board, i) => {
    if (i > 0) output.line();
    printBoard(output, board, false);
  });
  return ExitCode.ok;
}

function printBoard(output: Output, board: Leaderboard, single: boolean): void {
  const { style } = output;
  output.line(
    `${style.bold(board.problem_name)}${board.title && board.title !== board.problem_name ? `  ${style.dim(board.title)}` : ''}`,
  );
  if (board.entries.length === 0) {
    output.line(
      style.dim(
        `  no accepted submissions yet${single ? ` (submit one: kforge submit ${board.problem_name} FILE)` : ''}`,
      ),
    );
    return;
  }
  output.table(board.entries, [
    {
      header: 'RANK',
      value: (e) => `${e.within_noise_of_previous ? '=' : ''}${e.rank}${e.flagged_for_review ? '!' : ''}`,
      align: 'right',
    },
    { header: 'USER', value: (e) => e.user.display_name },
    { header: 'DEVICE', value: (e) => e.device },
    { header: 'TIME', value: (e) => formatMsInterval(e.time_ms, e.time_interval), align: 'right' },
    { header: 'SPEEDUP', value: (e) => formatSpeedup(e.speedup, e.speedup_interval), align: 'right' },
    { header: 'RUNS', value: (e) => String(e.runs ?? 1), align: 'right' },
    { header: 'SUBMITTED', value: (e) => formatDate(e.created_at) },
  ]);
  if (board.entries.some((e) => e.within_noise_of_previous))
    output.line(style.dim('= within noise of the row above (their 95% time intervals overlap)'));
  if (board.entries.some((e) => e.flagged_for_review))
    output.line(style.dim('! flagged for review (a speedup over 10x or over 90% of peak)'));
  if (single && board.count > board.entries.length)
    output.line(style.dim(`${board.entries.length} of ${board.count}; more with --limit`));
}
