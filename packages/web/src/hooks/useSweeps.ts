// Sweeps and the agents leaderboard (issue 24); a sweep still at work is polled every 2 s so its fast_p fills in live.
import type { CreateSweepRequest, Sweep } from '@kernelforge/sdk';
import useSWR, { useSWRConfig } from 'swr';
import { api } from '../lib/client';
import { keys, sameList } from './keys';

export const SWEEP_POLL_MS = 2000;
const FINAL = new Set(['completed', 'stopped', 'failed']);
export const sweepDone = (s: Pick<Sweep, 'status'>) => FINAL.has(s.status);

export function useSweeps(offset = 0) {
  // Awaited to the page itself (a PagePromise is also an async iterator over every page).
  return useSWR(keys.sweeps(offset), async () => await api().sweeps.list({ offset }), {
    refreshInterval: (list) => (list?.data.some((s) => !sweepDone(s)) ? SWEEP_POLL_MS : 0),
  });
}

export function useSweep(id: string | undefined) {
  return useSWR(id ? keys.sweep(id) : null, () => api().sweeps.get(id as string), {
    refreshInterval: (sweep) => (sweep && sweepDone(sweep) ? 0 : SWEEP_POLL_MS),
  });
}

export function useAgentsLeaderboard(set: string, device: string) {
  return useSWR(keys.agents(set, device), () => api().agents.leaderboard({ set, ...(device ? { device } : {}) }), {
    keepPreviousData: true,
  });
}

/** The named problem sets (built in, then those admins saved). */
export function useSweepSets() {
  return useSWR(keys.sweepSets, () => api().sweeps.sets(), { revalidateOnFocus: false });
}

/** Start, stop and delete sweeps; a stopped sweep is written into its cache entry, the lists ask again after each. */
export function useSweepMutations() {
  const { mutate } = useSWRConfig();
  const refreshLists = () => mutate(sameList(keys.sweeps(0)));
  return {
    create: async (body: CreateSweepRequest): Promise<Sweep> => {
      const sweep = await api().sweeps.create(body);
      void refreshLists();
      return sweep;
    },
    stop: async (id: string): Promise<Sweep> => {
      const sweep = await api().sweeps.stop(id);
      await mutate(keys.sweep(id), sweep, { revalidate: false });
      return sweep;
    },
    remove: async (id: string) => {
      const done = await api().sweeps.delete(id);
      void refreshLists();
      return done;
    },
  };
}
