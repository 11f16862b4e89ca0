// Leaderboard rows: rank, user, device, time, speedup, date; each row opens its submission.
import type { LeaderboardEntry } from '@kernelforge/sdk';
import { formatDate, formatMs } from '../lib/format';
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
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm" data-testid="leaderboard">
        <thead className="text-xs text-slate-500 uppercase dark:text-slate-400">
          <tr>
            <th className="py-2 pr-4 font-medium">Rank</th>
            <th className="py-2 pr-4 font-medium">User</th>
            <th className="py-2 pr-4 font-medium">Device</th>
            {compact ? null : <th className="py-2 pr-4 font-medium">Language</th>}
            <th className="py-2 pr-4 text-right font-medium">Time</th>
            <th className="py-2 pr-4 text-right font-medium">Speedup</th>
            {compact ? null : <th className="py-2 font-medium">Date</th>}
          </tr>
        </thead>
        <tbody>
          {entries.map((e) => (
            <tr
              key={e.submission_id}
              data-testid="leaderboard-row"
              className="border-t border-slate-100 dark:border-slate-800"
            >
              <td className="py-2 pr-4 font-semibold tabular-nums">{e.rank}</td>
              <td className="py-2 pr-4">
                <AppLink href={`/leaderboard/submission/${e.submission_id}`}>{e.user.display_name}</AppLink>
                {e.user.email ? (
                  <span className="ml-2 text-xs break-all text-slate-500 dark:text-slate-400">{e.user.email}</span>
                ) : null}
                {e.flagged_for_review ? (
                  <span className="mt-1 block text-xs text-amber-700 dark:text-amber-300" data-testid="flagged">
                    ⚑ Flagged for review, ranked below unflagged results
                    {e.review_reasons.length ? `: ${e.review_reasons.join('; ')}` : ''}
                  </span>
                ) : null}
              </td>
              <td className="py-2 pr-4 font-mono text-xs">{e.device}</td>
              {compact ? null : <td className="py-2 pr-4 text-xs">{e.language ?? '—'}</td>}
              <td className="py-2 pr-4 text-right tabular-nums">{formatMs(e.time_ms)}</td>
              <td className="py-2 pr-4 text-right tabular-nums">
                <Speedup value={e.speedup} interval={e.speedup_interval} />
              </td>
              {compact ? null : (
                <td className="py-2 text-xs text-slate-500 dark:text-slate-400">{formatDate(e.created_at)}</td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
