// The review queue (GET /api/v1/admin/reviews): flagged results waiting, and those decided; a decision refreshes both.
import type { ReviewItem } from '@kernelforge/sdk';
import useSWR, { useSWRConfig } from 'swr';
import { api } from '../lib/client';
import { keys, sameList } from './keys';

export function useReviews(status: 'pending' | 'decided') {
  return useSWR(keys.reviews(status), () => api().admin.reviews({ status }));
}

/** Approve a flagged result into the ranking, or reject it (a reason required); both lists ask again. */
export function useReviewDecision(): (
  item: ReviewItem,
  decision: 'approve' | 'reject',
  reason: string,
) => Promise<unknown> {
  const { mutate } = useSWRConfig();
  return async (item, decision, reason) => {
    const done = await api().admin.review(item.submission_id, { decision, ...(reason ? { reason } : {}) });
    void mutate(sameList(keys.reviews('pending')));
    return done;
  };
}
