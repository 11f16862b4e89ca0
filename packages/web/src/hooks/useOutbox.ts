// The mail outbox (GET /api/v1/admin/outbox): mails kept when no SMTP server is configured, newest first.
import useSWR from 'swr';
import { api } from '../lib/client';
import { keys } from './keys';

export function useOutbox() {
  return useSWR(keys.outbox, () => api().admin.outbox());
}
