// `/leaderboard/` ('Leaderboard'): every problem with its top 3.
import { AppLink } from '../components/AppLink';
import { Card } from '../components/Card';
import { LeaderboardTable } from '../components/LeaderboardTable';
import { PageHeader } from '../components/PageHeader';
import { QueryState } from '../components/QueryState';
import { useLeaderboards } from '../hooks/useLeaderboards';

export default function LeaderboardsPage() {
  const { data, error } = useLeaderboards();
  return (
    <>
      <PageHeader title="Leaderboard" subtitle="The fastest accepted solution of each user, per problem and device." />
      <QueryState data={data} error={error} label="Loading leaderboards…">
        {(list) =>
          list.data.length === 0 ? (
            <p className="text-slate-500 dark:text-slate-400">No leaderboard yet.</p>
          ) : (
            <div className="grid gap-6 md:grid-cols-2">
              {list.data.map((board) => (
                <Card
                  key={board.problem_name}
                  title={
                    <AppLink href={`/leaderboard/${encodeURIComponent(board.problem_name)}`}>{board.title}</AppLink>
                  }
                  actions={<span className="text-xs text-slate-500 dark:text-slate-400">{board.count} ranked</span>}
                >
                  <LeaderboardTable entries={board.entries} compact />
                </Card>
              ))}
            </div>
          )
        }
      </QueryState>
    </>
  );
}
