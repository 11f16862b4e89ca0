// `kforge sessions list`: your sessions, a page at a time (or --all).
import { Command } from 'commander';
import { type Runtime, examples, handle, nonNegativeInt, positiveInt } from '../../core/command.js';
import type { CommandContext } from '../../core/context.js';
import { ExitCode } from '../../core/exit-codes.js';
import { colorStatus, formatDate, formatMs, paintCell, truncate } from '../../output/format.js';
import { attemptTime } from '../../watch/session-state.js';

interface ListOptions {
  limit?: number;
  offset?: number;
  all?: boolean;
  deleted?: boolean;
}

export function sessionsListCommand(runtime: Runtime): Command {
  const command = new Command('list')
    .alias('ls')
    .description('list your agent sessions, newest first')
    .option('--limit <n>', 'sessions per page (default 50)', positiveInt)
    .option('--offset <n>', 'skip this many sessions', nonNegativeInt)
    .option('--all', 'every session, page after page')
    .option('--deleted', 'include deleted sessions (restore one with `kforge sessions restore`)');
  examples(command, [
    ['kforge sessions list', 'the newest 50'],
    ['kforge sessions list --limit 10 --offset 10', 'the second page of 10'],
    ['kforge sessions list --all --json', 'every session as {data, count}'],
  ]);
  return handle<[], ListOptions>(runtime, command, list);
}

async function list(ctx: CommandContext, _args: [], options: ListOptions): Promise<ExitCode> {
  const client = await ctx.client();
  const pages = client.sessions.list({
    ...(options.limit ? { limit: options.limit } : {}),
    ...(options.offset !== undefined ? { offset: options.offset } : {}),
    ...(options.deleted ? { include_deleted: true } : {}),
  });
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
        `${sessions.length} of ${page.count}; next page: kforge sessions list --offset ${next}${options.limit ? ` --limit ${options.limit}` : ''} (or --all)`,
      ),
    );
  }
  return ExitCode.ok;
}
