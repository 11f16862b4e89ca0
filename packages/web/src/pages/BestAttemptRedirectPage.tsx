// `/kernels/{kernelId}/`: on to the best attempt. Not signed in: `/`. No id or no session: the new-kernel page.
import { type AgentSession, bestAttempt } from '@kernelforge/sdk';
import { useEffect } from 'react';
import { useLocation } from 'wouter';
import { Spinner } from '../components/Spinner';
import { useCurrentUser } from '../hooks/useCurrentUser';
import { useSession } from '../hooks/useSession';
import type { PageProps } from '../lib/matchPath';

/** null: known absent; undefined: still loading. Undefined result: wait. */
export function bestAttemptTarget(
  kernelId: string | undefined,
  user: object | null | undefined,
  session: Pick<AgentSession, 'generation_attempts'> | null | undefined,
): string | undefined {
  if (user === null) return '/';
  if (!kernelId) return '/kernels/generate-kernel';
  if (user === undefined) return undefined;
  if (session === null) return '/kernels/generate-kernel';
  if (session === undefined) return undefined;
  const best = bestAttempt(session);
  return best ? `/kernels/${kernelId}/attempts/${best.id}` : `/kernels/${kernelId}`;
}

export default function BestAttemptRedirectPage({ params }: PageProps) {
  const id = params.kernelId;
  const { data: user, error: userError } = useCurrentUser();
  const signedIn = Boolean(user) && !userError;
  const { data: session, error: sessionError } = useSession(signedIn ? id : undefined);
  const [, navigate] = useLocation();
  const target = bestAttemptTarget(id, userError ? null : user, sessionError ? null : session);

  useEffect(() => {
    if (target) navigate(target, { replace: true });
  }, [target, navigate]);
  return <Spinner label="Finding the best attempt…" />;
}
