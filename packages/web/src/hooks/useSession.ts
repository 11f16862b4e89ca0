// One agent session with its attempts and instructions (GET /api/v1/agent-session/{id}).
import type { AgentSession } from '@kernelforge/sdk';
import useSWR from 'swr';
import { api, getToken } from '../lib/client';
import { keys } from './keys';

const prefetched = new Map<string, Promise<AgentSession>>();

/**
 * Starts loading a session before its page mounts (the route table calls it on navigation), so the request
 * runs alongside the current-user check and the page chunk instead of after them.
 */
export function prefetchSession(id: string | undefined): void {
  if (!id || !getToken() || prefetched.has(id)) return;
  const request = api().sessions.get(id);
  request.catch(() => {});
  prefetched.set(id, request);
  setTimeout(() => prefetched.delete(id), 10_000);
}

function loadSession(id: string): Promise<AgentSession> {
  const early = prefetched.get(id);
  prefetched.delete(id);
  return early ?? api().sessions.get(id);
}

export function useSession(id: string | undefined) {
  // The event stream keeps it fresh, so focus revalidation is all the polling there is.
  return useSWR(id ? keys.session(id) : null, () => loadSession(id ?? ''));
}
