// Runners, devices and the job queue (GET /api/v1/admin/status), refreshed every 5 s; and cancelling a job in flight.
import useSWR, { useSWRConfig } from 'swr';
import { api } from '../lib/client';
import { keys } from './keys';

export const ADMIN_STATUS_POLL_MS = 5000;

export function useAdminStatus() {
  return useSWR(keys.adminStatus, () => api().admin.status(), { refreshInterval: ADMIN_STATUS_POLL_MS });
}

/** Cancel a job in flight (its work stops as its owner's Stop would); the status asks again. Returns the server's word. */
export function useCancelJob(): (id: string) => Promise<string> {
  const { mutate } = useSWRConfig();
  return async (id) => {
    const { message } = await api().admin.cancelJob(id);
    void mutate(keys.adminStatus);
    return message;
  };
}
