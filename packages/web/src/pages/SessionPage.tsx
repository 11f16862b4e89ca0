// `/kernels/{kernelId}` ('Kernel: <label>'): attempts, chart, instructions and actions, live over SSE.
import { type AgentSession, attemptFigure, bestAttempt } from '@kernelforge/sdk';
import { AppLink } from '../components/AppLink';
import { AttemptChart } from '../components/AttemptChart';
import { AttemptTable } from '../components/AttemptTable';
import { ExportButtons } from '../components/ExportButtons';
import { Card } from '../components/Card';
import { InstructionList } from '../components/InstructionList';
import { NewInstructionForm } from '../components/NewInstructionForm';
import { PageHeader } from '../components/PageHeader';
import { ProblemName } from '../components/ProblemName';
import { QueryState } from '../components/QueryState';
import { SessionActions } from '../components/SessionActions';
import { SessionProgress, sessionProgress } from '../components/SessionProgress';
import { StatusBadge } from '../components/StatusBadge';
import { SubmitAttemptButton } from '../components/SubmitAttemptButton';
import { useSession } from '../hooks/useSession';
import { useSessionEvents, useStreamedText } from '../hooks/useSessionEvents';
import { useSessionMutations } from '../hooks/useSessionMutations';
import { useSessionProgress } from '../hooks/useSessionProgress';
import { Speedup, TimeWithSpread } from '../components/Speedup';
import { attemptsTable } from '../lib/exportTable';
import type { PageProps } from '../lib/matchPath';

/** The two newest attempts with a source, oldest first, as a comparison to start from. */
function comparePair(session: AgentSession): string | undefined {
  const withSource = session.generation_attempts
    .filter((a) => a.source)
    .sort((x, y) => x.attempt_number - y.attempt_number)
    .slice(-2);
  const [a, b] = withSource;
  return a && b ? `/kernels/${session.id}/compare/${a.attempt_number}/${b.attempt_number}` : undefined;
}

function SessionView({ session }: { session: AgentSession }) {
  const actions = useSessionMutations(session.id);
  const streamed = useStreamedText(session.id);
  const best = session.best_attempt ?? bestAttempt(session);
  // Only an attempt with a figure to rank by is shown as the best: the spec's fallback (no accepted attempt: the first
  // completed one) is never drawn as accepted.
  const figure = best ? attemptFigure(best) : undefined;
  const bestId = figure ? best?.id : undefined;
  const deleted = session.deleted_at !== null;
  const live = sessionProgress(session);
  const { data: report } = useSessionProgress(
    session.id,
    !deleted && live !== null,
    live ? { id: live.current.id, status: live.current.status } : undefined,
  );
  return (
    <>
      <PageHeader
        title={`Kernel: ${session.label}`}
        subtitle={
          <span className="flex flex-wrap items-center gap-2">
            <StatusBadge status={deleted ? 'deleted' : session.status} />
            <ProblemName
              name={session.problem_name}
              href={`/leaderboard/${encodeURIComponent(session.problem_name)}`}
            />
            <span aria-hidden="true">·</span>
            <span className="font-mono text-xs">{session.device}</span>
            <span aria-hidden="true">·</span>
            <span>
              {session.agent.provider}
              {session.agent.model ? ` / ${session.agent.model}` : ''}
            </span>
          </span>
        }
        actions={<SessionActions session={session} actions={actions} />}
      />
      {deleted ? (
        <p
          role="status"
          className="mb-6 rounded-md bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:bg-amber-950/50 dark:text-amber-100"
        >
          This session is deleted. Restore it to keep working on it.
        </p>
      ) : null}
      {deleted ? null : <SessionProgress session={session} streamed={streamed} report={report} />}
      <div className="grid gap-6 lg:grid-cols-3">
        <Card title="Time per accepted attempt (log axis, 95% intervals)" className="min-w-0 lg:col-span-2">
          <AttemptChart attempts={session.generation_attempts} bestId={bestId} sessionId={session.id} />
        </Card>
        <Card
          title="Best attempt"
          actions={
            bestId && best ? <SubmitAttemptButton session={session} attempt={best} size="sm" label="Submit" /> : null
          }
        >
          {bestId && best ? (
            <dl className="grid grid-cols-2 gap-3 text-sm">
              <dt className="text-slate-500 dark:text-slate-400">Attempt</dt>
              <dd>
                <AppLink href={`/kernels/${session.id}/attempts/${best.id}`}>#{best.attempt_number}</AppLink>
              </dd>
              <dt className="text-slate-500 dark:text-slate-400">Time</dt>
              <dd className="tabular-nums">
                <TimeWithSpread ms={figure?.time_ms} interval={figure?.time_interval} />
              </dd>
              <dt className="text-slate-500 dark:text-slate-400">Speedup</dt>
              <dd className="tabular-nums">
                <Speedup value={figure?.speedup} interval={figure?.speedup_interval} />
                <span className="block text-xs text-slate-500 dark:text-slate-400">
                  over the baseline timed beside it
                </span>
              </dd>
            </dl>
          ) : (
            <p className="text-sm text-slate-500 dark:text-slate-400">No accepted attempt yet.</p>
          )}
        </Card>
      </div>
      <Card
        title={`Attempts (${session.generation_attempts.length})`}
        className="mt-6"
        actions={
          <>
            {comparePair(session) ? <AppLink href={comparePair(session) ?? ''}>Compare attempts</AppLink> : null}
            {session.generation_attempts.length > 0 ? (
              <ExportButtons
                name={`${session.label || session.name}-attempts`}
                what="the attempts"
                table={() => attemptsTable(session.generation_attempts, bestId)}
              />
            ) : null}
          </>
        }
      >
        <AttemptTable
          sessionId={session.id}
          attempts={session.generation_attempts}
          bestId={bestId}
          streamed={streamed}
          emptyAction={deleted ? undefined : { label: 'Tell the agent what to try', focus: 'new-instruction' }}
        />
      </Card>
      <div className="mt-6 grid gap-6 lg:grid-cols-2">
        <Card title="Instructions">
          <InstructionList instructions={session.user_instructions} actions={actions} />
        </Card>
        <Card title="Tell the agent what to try next">
          <NewInstructionForm onSubmit={actions.instruct} disabled={deleted} />
        </Card>
      </div>
    </>
  );
}

export default function SessionPage({ params }: PageProps) {
  const id = params.kernelId;
  const { data, error } = useSession(id);
  useSessionEvents(id, data !== undefined && data.deleted_at === null);
  return (
    <QueryState data={data} error={error} label="Loading session…">
      {(session) => <SessionView session={session} />}
    </QueryState>
  );
}
