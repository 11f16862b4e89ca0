// The caller's notices (GET /api/v1/users/me/notices), polled every 30 s, and which of them are new on this browser
// (newer than the last one the notices page showed).
import type { Notice } from '@kernelforge/sdk';
import { useCallback, useEffect, useState } from 'react';
import useSWR from 'swr';
import { api } from '../lib/client';
import { keys } from './keys';

const seenKey = (userId: string) => `kf-notices-seen:${userId}`;
const SEEN_EVENT = 'kf-notices-seen';

function readSeen(userId: string): string {
  try {
    return localStorage.getItem(seenKey(userId)) ?? '';
  } catch {
    return '';
  }
}

export function useNotices(userId: string) {
  const { data } = useSWR(keys.notices, async () => (await api().users.notices()).data, { refreshInterval: 30_000 });
  const [seen, setSeen] = useState(() => readSeen(userId));
  useEffect(() => {
    const update = () => setSeen(readSeen(userId));
    window.addEventListener(SEEN_EVENT, update);
    return () => window.removeEventListener(SEEN_EVENT, update);
  }, [userId]);
  const markSeen = useCallback(
    (notices: readonly Notice[]) => {
      const newest = notices[0]?.at;
      if (!newest) return;
      try {
        localStorage.setItem(seenKey(userId), newest);
      } catch {
        // Private mode: new until the page reloads.
      }
      window.dispatchEvent(new Event(SEEN_EVENT));
    },
    [userId],
  );
  const fresh = (data ?? []).filter((n) => n.at > seen).length;
  return { notices: data, fresh, markSeen };
}
