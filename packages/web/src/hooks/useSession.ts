// One agent session with its attempts and instructions (GET /api/v1/agent-session/{id}).
import useSWR from 'swr';
import { api } from '../lib/client';
import { keys } from './keys';

export function useSession(id: string | undefined) {
  // The event stream keeps it fresh, so focus revalidation is all the polling there is.
  return useSWR(id ? keys.session(id) : null, () => api().sessions.get(id ?? ''));
}
