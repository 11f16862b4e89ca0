// `kforge submissions`: your latest submissions with their status or verdict, newest first.
import { Command } from 'commander';
import { type Runtime, examples, handle, positiveInt } from '../../core/command.js';
import type { CommandContext } from '../../core/context.js';
import { ExitCode } from '../../core/exit-codes.js';
import { submissionsShowCommand } from './show.js';
import { colorStatus, colorVerdict, formatDate, formatMs, formatSpeedup, paintCell } from '../../output/format.js';

/** Statuses shown while there is no verdict (a finished submission shows its verdict). */
const UNFINISHED = new Set(['queued', 'evaluating', 'failed']);

interface SubmissionsOptions {
  problem?: string;
  limit?: number;
}

export function submissionsCommand(runtime: Runtime): Command {
  const command = new Command('submissions')
    .description('list your submissions, newest first, with their status or verdict')
    .option('-p, --problem <name>', 'only submissions to this problem')
    .option('--limit <n>', 'how many (default 20)', positiveInt);
  // `kforge submissions show ID` beside the list, which stays `kforge submissions`.
  command.addCommand(submissionsShowCommand(runtime));
  examples(command, [
    ['kforge submissions', 'your latest 20'],
    ['kforge submissions --problem 19_ReLU --json', 'as {data, count}, e.g. in CI'],
    ['kforge submissions show 7b2e... --build-facts', "one submission's assembly and vectorization report"],
  ]);
  return handle<[], SubmissionsOptions>(runtime, command, list);
}

async function list(ctx: CommandContext, _args: [], options: SubmissionsOptions): Promise<ExitCode> {
  const client = await ctx.client();
  const page = await client.submissions.list({
    limit: options.limit ?? 20,
    ...(options.problem ? { problem_name: options.problem } : {}),
  });
  const { output } = ctx;
  if (output.json) {
    output.printJson(page);
    return ExitCode.ok;
  }
  if (page.data.length === 0) {
    output.info(
      options.problem
        ? `No submissions to ${options.problem} yet.`
        : 'No submissions yet. Submit one with `kforge submit PROBLEM FILE`.',
    );
    return ExitCode.ok;
  }
  const { style } = output;
  output.table(page.data, [
    { header: 'ID', value: (s) => s.id },
    { header: 'PROBLEM', value: (s) => s.problem_name },
    { header: 'DEVICE', value: (s) => s.device },
    {
      header: 'RESULT',
      value: (s) => (s.status === 'completed' ? (s.verdict ?? 'completed') : s.status),
      color: (t) =>
        paintCell(t, (text) => (UNFINISHED.has(text) ? colorStatus(style, text) : colorVerdict(style, text))),
    },
    { header: 'TIME', value: (s) => formatMs(s.time_ms), align: 'right' },
    { header: 'SPEEDUP', value: (s) => formatSpeedup(s.speedup), align: 'right' },
    { header: 'SUBMITTED', value: (s) => formatDate(s.created_at) },
  ]);
  if (page.count > page.data.length) output.info(style.dim(`${page.data.length} of ${page.count}; --limit for more.`));
  return ExitCode.ok;
}
