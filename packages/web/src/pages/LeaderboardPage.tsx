// `/leaderboard/{problemId}` ('Problem: <name>'): the top 100, with a device filter.
import { problemTitle } from '@kernelforge/sdk';
import { useState } from 'react';
import { Card } from '../components/Card';
import { DeviceSelect } from '../components/DeviceSelect';
import { LeaderboardTable } from '../components/LeaderboardTable';
import { PageHeader } from '../components/PageHeader';
import { QueryState } from '../components/QueryState';
import { useDevices } from '../hooks/useDevices';
import { useLeaderboard } from '../hooks/useLeaderboards';
import type { PageProps } from '../routes';

export const PROBLEM_ID_REQUIRED = 'Problem ID is required';

export default function LeaderboardPage({ params }: PageProps) {
  const problemId = params.problemId ?? '';
  const [device, setDevice] = useState('');
  const { data, error } = useLeaderboard(problemId.trim() ? problemId : '', device);
  const devices = useDevices();
  if (!problemId.trim()) throw new Error(PROBLEM_ID_REQUIRED);
  return (
    <>
      <PageHeader
        title={`Problem: ${problemTitle(problemId)}`}
        subtitle={data?.title && data.title !== problemTitle(problemId) ? data.title : undefined}
      />
      <Card>
        <div className="mb-4 max-w-sm">
          <DeviceSelect
            label="Device"
            devices={devices.data?.data ?? []}
            value={device}
            onChange={setDevice}
            allowAny="All devices"
          />
        </div>
        <QueryState data={data} error={error}>
          {(board) => <LeaderboardTable entries={board.entries} />}
        </QueryState>
      </Card>
    </>
  );
}
