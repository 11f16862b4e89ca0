// `/leaderboard/` ('Leaderboard'): every problem in one dense table (level, devices, best time per device, entries),
// with a search and a level filter kept in the URL (?q=&level=).
import type { Leaderboard, LeaderboardEntry, Problem } from '@kernelforge/sdk';
import { useSearch } from 'wouter';
import { navigate } from 'wouter/use-browser-location';
import { AppLink } from '../components/AppLink';
import { Card } from '../components/Card';
import { DataTable } from '../components/DataTable';
import { EmptyState } from '../components/EmptyState';
import { SelectField, TextField } from '../components/fields';
import { PageHeader } from '../components/PageHeader';
import { ProblemName } from '../components/ProblemName';
import { QueryState } from '../components/QueryState';
import { useLeaderboards } from '../hooks/useLeaderboards';
import { useProblems } from '../hooks/useProblems';
import { formatMs } from '../lib/format';

/**
 * The best time per device among a board's top entries. An unflagged entry always wins over a flagged one (flagged
 * results stay off the top until reviewed); a device whose only entries are flagged shows its best flagged one,
 * marked as such, rather than "no entry yet" beside a non-zero entry count.
 */
export function bestPerDevice(board: Leaderboard): LeaderboardEntry[] {
  const best = new Map<string, LeaderboardEntry>();
  for (const e of board.entries) {
    const held = best.get(e.device);
    const better =
      !held ||
      (held.flagged_for_review && !e.flagged_for_review) ||
      (held.flagged_for_review === e.flagged_for_review && e.time_ms < held.time_ms);
    if (better) best.set(e.device, e);
  }
  return [...best.values()].sort((a, b) => a.device.localeCompare(b.device));
}

function useFilters() {
  const search = useSearch();
  const params = new URLSearchParams(search);
  const q = params.get('q') ?? '';
  const level = params.get('level') ?? '';
  const set = (key: string, value: string) => {
    const next = new URLSearchParams(search);
    if (value) next.set(key, value);
    else next.delete(key);
    const qs = next.toString();
    navigate(`${window.location.pathname}${qs ? `?${qs}` : ''}`, { replace: true });
  };
  return { q, level, set };
}

/** A problem's best time on each device, with who holds it (and a flag while it is under review). */
function BestPerDevice({ board }: { board: Leaderboard }) {
  const best = bestPerDevice(board);
  return best.length === 0 ? (
    <span className="text-slate-400">no entry yet</span>
  ) : (
    <ul className="space-y-0.5">
      {best.map((e) => (
        <li key={e.device} data-testid="leaderboard-row" className="tabular-nums">
          {formatMs(e.time_ms)} <span className="font-mono text-xs text-slate-500 dark:text-slate-400">{e.device}</span>{' '}
          <span className="text-xs text-slate-500 dark:text-slate-400">
            by <AppLink href={`/leaderboard/submission/${e.submission_id}`}>{e.user.display_name}</AppLink>
          </span>
          {e.flagged_for_review ? (
            <span className="block text-xs text-amber-700 dark:text-amber-300" data-testid="flagged">
              ⚑ Under review
              {e.review_reasons.length ? `: ${e.review_reasons.join('; ')}` : ''}
            </span>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

export default function LeaderboardsPage() {
  const { data, error } = useLeaderboards();
  const problems = useProblems();
  const { q, level, set } = useFilters();
  const byName = new Map<string, Problem>((problems.data?.data ?? []).map((p) => [p.name, p]));
  const levels = [...new Set((problems.data?.data ?? []).map((p) => p.level))].sort((a, b) => a - b);
  return (
    <>
      <PageHeader title="Leaderboard" subtitle="The fastest accepted solution of each user, per problem and device." />
      <Card>
        <form role="search" className="mb-4 grid gap-4 sm:grid-cols-[1fr_12rem]" onSubmit={(e) => e.preventDefault()}>
          <TextField
            label="Search problems"
            type="search"
            value={q}
            placeholder="e.g. relu, matmul, softmax"
            onChange={(e) => set('q', e.target.value)}
          />
          <SelectField label="Level" value={level} onChange={(e) => set('level', e.target.value)}>
            <option value="">Every level</option>
            {levels.map((l) => (
              <option key={l} value={String(l)}>
                Level {l}
              </option>
            ))}
          </SelectField>
        </form>
        <QueryState data={data} error={error} label="Loading leaderboards…">
          {(list) => {
            const needle = q.trim().toLowerCase();
            const rows = list.data.filter((board) => {
              const problem = byName.get(board.problem_name);
              if (level && String(problem?.level ?? '') !== level) return false;
              if (!needle) return true;
              return [board.problem_name, board.title, problem?.description ?? '']
                .join(' ')
                .toLowerCase()
                .includes(needle);
            });
            if (list.data.length === 0)
              return (
                <EmptyState icon="leaderboard" title="No leaderboard yet">
                  Each problem of the catalogue gets a leaderboard; this server has no problem loaded.
                </EmptyState>
              );
            if (rows.length === 0)
              return (
                <EmptyState
                  icon="search"
                  title="No problem matches these filters"
                  action={{
                    label: 'Clear the filters',
                    onClick: () => navigate(window.location.pathname, { replace: true }),
                  }}
                >
                  Search by the problem's id, title or description, or pick another level.
                </EmptyState>
              );
            // Problems with entries first, in the catalogue's order; the ones nobody has entered yet folded below
            // (the page still loads every leaderboard on entry, as the spec says).
            const ranked = rows.filter((board) => board.count > 0);
            const empty = rows.filter((board) => board.count === 0);
            const table =
              ranked.length === 0 ? null : (
                <DataTable
                  testId="problems"
                  rows={ranked}
                  rowKey={(board) => board.problem_name}
                  rowTestId="problem-row"
                  columns={[
                    {
                      id: 'problem',
                      header: 'Problem',
                      wide: true,
                      cell: (board) => (
                        <ProblemName
                          name={board.problem_name}
                          title={board.title}
                          href={`/leaderboard/${encodeURIComponent(board.problem_name)}`}
                        />
                      ),
                    },
                    {
                      id: 'level',
                      header: 'Level',
                      className: 'tabular-nums',
                      cell: (board) => byName.get(board.problem_name)?.level ?? '—',
                    },
                    {
                      id: 'runs-on',
                      header: 'Runs on',
                      className: 'text-xs',
                      cell: (board) => byName.get(board.problem_name)?.backends.join(', ') ?? '—',
                    },
                    {
                      id: 'best',
                      header: 'Best time per device',
                      className: 'max-md:col-span-2',
                      cell: (board) => <BestPerDevice board={board} />,
                    },
                    { id: 'entries', header: 'Entries', align: 'right', cell: (board) => board.count },
                  ]}
                />
              );
            return (
              <>
                {table ?? (
                  <EmptyState
                    icon="leaderboard"
                    title="No accepted submission yet"
                    action={{ label: 'Submit a solution', href: '/kernels/submit' }}
                    testId="no-entries"
                  >
                    Submit a solution, or <AppLink href="/kernels/generate-kernel">start an agent session</AppLink>, to
                    be the first on a leaderboard.
                  </EmptyState>
                )}
                {empty.length > 0 ? (
                  <details
                    className="mt-4 text-sm"
                    data-testid="empty-problems"
                    open={ranked.length === 0 || needle !== '' || level !== ''}
                  >
                    <summary className="cursor-pointer text-slate-600 dark:text-slate-300">
                      {empty.length} problem{empty.length === 1 ? '' : 's'} with no entry yet
                    </summary>
                    <ul className="mt-2 grid gap-x-6 gap-y-1 sm:grid-cols-2 lg:grid-cols-3">
                      {empty.map((board) => (
                        <li key={board.problem_name} className="min-w-0">
                          <ProblemName
                            name={board.problem_name}
                            title={board.title}
                            href={`/leaderboard/${encodeURIComponent(board.problem_name)}`}
                          />
                        </li>
                      ))}
                    </ul>
                  </details>
                ) : null}
              </>
            );
          }}
        </QueryState>
      </Card>
    </>
  );
}
