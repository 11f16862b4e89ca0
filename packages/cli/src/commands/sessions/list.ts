// `kforge sessions list`: your sessions, a page at a time (or --all); superusers: everyone's (--everyone).
import { Command } from 'commander';
import { type Runtime, examples, handle, nonNegativeInt, positiveInt } from '../../core/command.js';
import type { CommandContext } from '../../core/context.js';
import { UsageError } from '../../core/errors.js';
import { ExitCode } from '../../core/exit-codes.js';
import { colorStatus, formatDate, formatMs, paintCell, truncate } from '../../output/format.js';
import { attemptTime } from '../../watch/session-state.js';

interface ListOptions {
  limit?: number;
  offset?: number;
  all?: boolean;
  deleted?: boolean;
  everyone?: boolean;
  owner?: string;
  problem?: string;
}

export function sessionsListCommand(runtime: Runtime): Command {
  const command = new Command('list')
    .alias('ls')
    .description('list your agent sessions, newest first')
    .option('--limit <n>', 'sessions per page (default 50)', positiveInt)
    .option('--offset <n>', 'skip this many sessions', nonNegativeInt)
    .option('--all', 'every session, page after page')
    .option('--deleted', 'include deleted sessions (restore one with `kforge sessions restore`)')
    .option('--everyone', "superusers: every user's sessions (the admin dashboard's list)")
    .option('--owner <user-id>', "with --everyone: only this user's sessions")
    .option('--problem <name>', 'with --everyone: only sessions on this problem');
  examples(command, [
    ['kforge sessions list', 'the newest 50'],
    ['kforge sessions list --limit 10 --offset 10', 'the second page of 10'],
    ['kforge sessions list --all --json', 'every session as {data, count}'],
    ['kforge sessions list --everyone --problem 19_ReLU', "superusers: everyone's ReLU sessions"],
  ]);
  return handle<[], ListOptions>(runtime, command, list);
}

async function list(ctx: CommandContext, _args: [], options: ListOptions): Promise<ExitCode> {
  if ((options.owner || options.problem) && !options.everyone) {
    throw new UsageError("--owner and --problem filter the list of every user's sessions: add --everyone.");
  }
  const client = await ctx.client();
  const paging = {
    ...(options.limit ? { limit: options.limit } : {}),
    ...(options.offset !== undefined ? { offset: options.offset } : {}),
    ...(options.deleted ? { include_deleted: true } : {}),
  };
  const pages = options.everyone
    ? client.sessions.listAll({
        ...paging,
        ...(options.owner ? { owner_id: options.owner } : {}),
        ...(options.problem ? { problem_name: options.problem } : {}),
      })
    : client.sessions.list(paging);
  const page = await pages;
  const sessions = options.all ? await pages.toArray() : page.data;
  const { output } = ctx;
  if (output.json) {
    output.printJson({ data: sessions, count: page.count });
    return ExitCode.ok;
  }
  if (sessions.length === 0) {
    output.info(
      page.count > 0
        ? `No sessions on this page (${page.count} in all).`
        : 'No sessions yet. Start one with `kforge sessions start PROBLEM`.',
    );
    return ExitCode.ok;
  }
  const { style } = output;
  output.table(sessions, [
    { header: 'ID', value: (s) => s.id },
    ...(options.everyone ? [{ header: 'OWNER', value: (s: (typeof sessions)[number]) => s.owner_id }] : []),
    { header: 'NAME', value: (s) => truncate(s.name, 30), color: (t) => style.bold(t) },
    { header: 'PROBLEM', value: (s) => s.problem_name },
    { header: 'DEVICE', value: (s) => s.device },
    {
      header: 'STATUS',
      value: (s) => (s.deleted_at ? 'deleted' : s.status),
      color: (t) => paintCell(t, (text) => colorStatus(style, text)),
    },
    { header: 'ATTEMPTS', value: (s) => String(s.attempt_count), align: 'right' },
    {
      header: 'BEST',
      value: (s) => formatMs(s.best_attempt ? attemptTime(s.best_attempt) : undefined),
      align: 'right',
    },
    { header: 'CREATED', value: (s) => formatDate(s.created_at) },
  ]);
  if (!options.all && page.count > (options.offset ?? 0) + sessions.length) {
    const next = (options.offset ?? 0) + sessions.length;
    output.info(
      style.dim(
        `${sessions.length} of ${page.count}; next page: kforge sessions list${options.everyone ? ' --everyone' : ''} --offset ${next}${options.limit ? ` --limit ${options.limit}` : ''} (or --all)`,
      ),
    );
  }
  return ExitCode.ok;
}
