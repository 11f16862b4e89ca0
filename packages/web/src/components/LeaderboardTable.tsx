// Leaderboard rows: rank, user, device, time, speedup, runs, date; each row opens its submission. Every figure carries
// its 95% interval where the runner measured one, and a row whose interval overlaps the row above says it is within
// noise of it. On a phone the rank, user, time and speedup stay in view; device and date move under the user.
import type { LeaderboardEntry } from '@kernelforge/sdk';
import { formatDate, formatMs } from '../lib/format';
import { spreadOf } from '../lib/noise';
import { AppLink } from './AppLink';
import { Speedup } from './Speedup';

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
      <table className="w-full text-left text-sm" data-testid="leaderboard">
        <thead className="text-xs text-slate-500 uppercase dark:text-slate-400">
          <tr>
            <th className="py-2 pr-3 font-medium">Rank</th>
            <th className="py-2 pr-3 font-medium">User</th>
            <th className={`py-2 pr-4 font-medium ${wide}`}>Device</th>
            {compact ? null : <th className={`py-2 pr-4 font-medium ${wide}`}>Language</th>}
            <th className="py-2 pr-3 text-right font-medium">Time</th>
            <th className="py-2 pr-3 text-right font-medium">Speedup</th>
            {compact ? null : (
              <th className={`py-2 pr-4 text-right font-medium ${wide}`} title="accepted ranked runs behind the row">
                Runs
              </th>
            )}
            {compact ? null : <th className={`py-2 font-medium ${wide}`}>Date</th>}
          </tr>
        </thead>
        <tbody>
          {entries.map((e) => {
            const pm = spreadOf(e.time_ms, e.time_interval);
            return (
              <tr
                key={e.submission_id}
                data-testid="leaderboard-row"
                className="border-t border-slate-100 align-top dark:border-slate-800"
              >
                <td className="py-2 pr-3 font-semibold whitespace-nowrap tabular-nums">
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
                </td>
                <td className="py-2 pr-3">
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
                </td>
                <td className={`py-2 pr-4 font-mono text-xs whitespace-nowrap ${wide}`}>{e.device}</td>
                {compact ? null : <td className={`py-2 pr-4 text-xs ${wide}`}>{e.language ?? '—'}</td>}
                <td className="py-2 pr-3 text-right whitespace-nowrap tabular-nums">
                  {formatMs(e.time_ms)}
                  {pm ? (
                    <span className="block text-xs text-slate-500 dark:text-slate-400" title={pm.title}>
                      {pm.text}
                    </span>
                  ) : null}
                </td>
                <td className="py-2 pr-3 text-right tabular-nums">
                  <Speedup value={e.speedup} interval={e.speedup_interval} />
                </td>
                {compact ? null : <td className={`py-2 pr-4 text-right tabular-nums ${wide}`}>{e.runs ?? 1}</td>}
                {compact ? null : (
                  <td className={`py-2 text-xs text-slate-500 dark:text-slate-400 ${wide}`}>
                    {formatDate(e.created_at)}
                  </td>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
      {entries.some((e) => e.within_noise_of_previous) ? (
        <p className="pt-2 text-xs text-slate-500 dark:text-slate-400">
          ≈ within noise of the row above: their 95% time intervals overlap.
        </p>
      ) : null}
    </div>
  );
}
