// The caller's sessions, 50 a page (GET /api/v1/agent-session).
import { PAGE_SIZE } from '@kernelforge/sdk';
import useSWR from 'swr';
import { api } from '../lib/client';
import { keys } from './keys';

export function useSessions(offset = 0) {
  return useSWR(keys.sessions(offset), async () => await api().sessions.list({ offset, limit: PAGE_SIZE }));
}
