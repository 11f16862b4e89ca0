// Leaderboard rows: rank, user, device, time, speedup, runs, date; each row opens its submission. Every figure carries
// its 95% interval where the runner measured one, and a row whose interval overlaps the row above says it is within
// noise of it. On a phone the rank, user, time and speedup stay in view; device and date move under the user.
import type { LeaderboardEntry } from '@kernelforge/sdk';
import { formatDate, formatMs } from '../lib/format';
import { spreadOf } from '../lib/noise';
import { AppLink } from './AppLink';
import { DataTable, type TableClasses } from './DataTable';
import { Speedup } from './Speedup';

/** Padding per column (the rank and figures tighter than the rest). */
const LEADERBOARD_TABLE: Partial<TableClasses> = {
  row: 'border-t border-slate-100 align-top dark:border-slate-800',
  th: 'py-2 font-medium',
  cell: 'py-2',
};

export function LeaderboardTable({
  entries,
  compact = false,
}: {
  entries: readonly LeaderboardEntry[];
  compact?: boolean;
}) {
  if (entries.length === 0)
    return <p className="py-3 text-sm text-slate-500 dark:text-slate-400">No ranked submission yet.</p>;
  const wide = 'hidden sm:table-cell';
  return (
    <div className="overflow-x-auto">
      <DataTable
        variant="plain"
        classes={LEADERBOARD_TABLE}
        testId="leaderboard"
        rows={entries}
        rowKey={(e) => e.submission_id}
        rowTestId="leaderboard-row"
        columns={[
          {
            id: 'rank',
            header: 'Rank',
            headerClassName: 'pr-3',
            className: 'pr-3 font-semibold whitespace-nowrap tabular-nums',
            cell: (e) => (
              <>
                {e.rank}
                {e.within_noise_of_previous ? (
                  <span
                    className="ml-1 text-xs font-normal text-slate-500 dark:text-slate-400"
                    title="within noise of the row above: their 95% time intervals overlap, so their order is not established"
                    data-testid="within-noise"
                  >
                    ≈
                  </span>
                ) : null}
              </>
            ),
          },
          {
            id: 'user',
            header: 'User',
            headerClassName: 'pr-3',
            className: 'pr-3',
            cell: (e) => (
              <>
                <AppLink href={`/leaderboard/submission/${e.submission_id}`}>{e.user.display_name}</AppLink>
                {e.user.email ? (
                  <span className="ml-2 text-xs break-all text-slate-500 dark:text-slate-400">{e.user.email}</span>
                ) : null}
                <span className="block text-xs text-slate-500 sm:hidden dark:text-slate-400">
                  {e.device}
                  {compact ? '' : ` · ${formatDate(e.created_at)}`}
                  {compact || (e.runs ?? 1) < 2 ? '' : ` · ${e.runs} runs`}
                </span>
                {e.flagged_for_review ? (
                  <details className="mt-1 text-xs text-amber-700 dark:text-amber-300" data-testid="flagged">
                    <summary className="cursor-pointer">⚑ Flagged for review</summary>
                    Ranked below unflagged results until reviewed
                    {e.review_reasons.length ? `: ${e.review_reasons.join('; ')}` : '.'}
                  </details>
                ) : null}
              </>
            ),
          },
          {
            id: 'device',
            header: 'Device',
            headerClassName: `pr-4 ${wide}`,
            className: `pr-4 font-mono text-xs whitespace-nowrap ${wide}`,
            cell: (e) => e.device,
          },
          !compact && {
            id: 'language',
            header: 'Language',
            headerClassName: `pr-4 ${wide}`,
            className: `pr-4 text-xs ${wide}`,
            cell: (e) => e.language ?? '—',
          },
          {
            id: 'time',
            header: 'Time',
            align: 'right',
            headerClassName: 'pr-3',
            className: 'pr-3 whitespace-nowrap',
            cell: (e) => {
              const pm = spreadOf(e.time_ms, e.time_interval);
              return (
                <>
                  {formatMs(e.time_ms)}
                  {pm ? (
                    <span className="block text-xs text-slate-500 dark:text-slate-400" title={pm.title}>
                      {pm.text}
                    </span>
                  ) : null}
                </>
              );
            },
          },
          {
            id: 'speedup',
            header: 'Speedup',
            align: 'right',
            headerClassName: 'pr-3',
            className: 'pr-3',
            cell: (e) => <Speedup value={e.speedup} interval={e.speedup_interval} />,
          },
          !compact && {
            id: 'runs',
            header: 'Runs',
            headerTitle: 'accepted ranked runs behind the row',
            align: 'right',
            headerClassName: `pr-4 ${wide}`,
            className: `pr-4 ${wide}`,
            cell: (e) => e.runs ?? 1,
          },
          !compact && {
            id: 'date',
            header: 'Date',
            headerClassName: wide,
            className: `text-xs text-slate-500 dark:text-slate-400 ${wide}`,
            cell: (e) => formatDate(e.created_at),
          },
        ]}
      />
      {entries.some((e) => e.within_noise_of_previous) ? (
        <p className="pt-2 text-xs text-slate-500 dark:text-slate-400">
          ≈ within noise of the row above: their 95% time intervals overlap.
        </p>
      ) : null}
    </div>
  );
}
