// Runners, devices and the job queue (GET /api/v1/admin/status), refreshed every 5 s.
import useSWR from 'swr';
import { api } from '../lib/client';
import { keys } from './keys';

export const ADMIN_STATUS_POLL_MS = 5000;

export function useAdminStatus() {
  return useSWR(keys.adminStatus, () => api().admin.status(), { refreshInterval: ADMIN_STATUS_POLL_MS });
}
