// Devices the runners offer, with availability (GET /api/v1/devices).
import useSWR from 'swr';
import { api } from '../lib/client';
import { keys } from './keys';

export function useDevices() {
  return useSWR(keys.devices, () => api().devices.list());
}
