// `/kernels/{kernelId}/attempts`: the session's attempts, from the session data ('Session not found' without it).
import { bestAttempt } from '@kernelforge/sdk';
import { AppLink } from '../components/AppLink';
import { AttemptTable } from '../components/AttemptTable';
import { Card } from '../components/Card';
import { PageHeader } from '../components/PageHeader';
import { QueryError } from '../components/QueryState';
import { Spinner } from '../components/Spinner';
import { useSession } from '../hooks/useSession';
import { useSessionEvents, useStreamedText } from '../hooks/useSessionEvents';
import type { PageProps } from '../lib/matchPath';

export default function AttemptsPage({ params }: PageProps) {
  const id = params.kernelId;
  const { data: session, error, isLoading } = useSession(id);
  useSessionEvents(id, session !== undefined);
  const streamed = useStreamedText(id);
  if (isLoading) return <Spinner />;
  if (!session) {
    if (error && !(error as { status?: number }).status) return <QueryError error={error} />;
    throw new Error('Session not found');
  }
  const best = bestAttempt(session);
  return (
    <>
      <PageHeader
        title={`Attempts of ${session.label}`}
        subtitle={<AppLink href={`/kernels/${session.id}`}>Back to the session</AppLink>}
      />
      <Card>
        <AttemptTable
          sessionId={session.id}
          attempts={session.generation_attempts}
          bestId={best?.status === 'completed' ? best.id : undefined}
          streamed={streamed}
          emptyAction={{ label: 'Open the session', href: `/kernels/${session.id}` }}
        />
      </Card>
    </>
  );
}
