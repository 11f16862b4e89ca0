// `/admin/review`: flagged results approved into the ranking or rejected with a reason, and those decided.
import type { ReviewItem } from '@kernelforge/sdk';
import { useState } from 'react';
import { useAction } from '../../hooks/useAction';
import { useReviewDecision, useReviews } from '../../hooks/useReviews';
import { formatDate, formatMs, formatSpeedup } from '../../lib/format';
import { AppLink } from '../AppLink';
import { Button } from '../Button';
import { Card } from '../Card';
import { EmptyState } from '../EmptyState';
import { controlClass } from '../fields';
import { ProblemName } from '../ProblemName';
import { QueryState } from '../QueryState';
import { StatusBadge } from '../StatusBadge';
import { AdminEmpty } from './AdminEmpty';

function ReviewRow({ item }: { item: ReviewItem }) {
  const [reason, setReason] = useState('');
  const { busy, run } = useAction();
  const decideOn = useReviewDecision();
  async function decide(decision: 'approve' | 'reject') {
    await run(
      () => decideOn(item, decision, reason.trim()),
      'Failed to record the decision',
      decision === 'approve' ? 'Approved into the ranking' : 'Rejected: out of the ranking',
    );
  }
  return (
    <li className="border-t border-slate-100 py-3 text-sm dark:border-slate-800" data-testid="review-item">
      <p className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <AppLink href={`/leaderboard/submission/${item.submission_id}`}>
          <ProblemName name={item.problem_name} />
        </AppLink>
        <span className="font-mono text-xs">{item.device}</span>
        <span>{item.user.display_name}</span>
        <span className="tabular-nums">{formatMs(item.time_ms)}</span>
        <span className="tabular-nums">{formatSpeedup(item.speedup)}</span>
        {item.status !== 'pending' ? (
          <StatusBadge status={item.status === 'approved' ? 'accepted' : 'rejected'} />
        ) : null}
      </p>
      <p className="mt-1 text-xs text-amber-800 dark:text-amber-300">⚑ {item.review_reasons.join('; ') || 'flagged'}</p>
      {item.status === 'pending' ? (
        <div className="mt-2 flex flex-wrap items-center gap-2">
          <label htmlFor={`reason-${item.submission_id}`} className="sr-only">
            Reason for the decision
          </label>
          <input
            id={`reason-${item.submission_id}`}
            className={`${controlClass} max-w-md min-w-0 flex-1 basis-56`}
            placeholder="Reason (required to reject)"
            value={reason}
            maxLength={500}
            onChange={(e) => setReason(e.target.value)}
          />
          <Button size="sm" variant="primary" disabled={busy} onClick={() => void decide('approve')}>
            Approve
          </Button>
          <Button
            size="sm"
            variant="danger"
            disabled={busy || !reason.trim()}
            title={reason.trim() ? undefined : 'Give a reason to reject'}
            onClick={() => void decide('reject')}
          >
            Reject
          </Button>
        </div>
      ) : (
        <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
          {item.status} {formatDate(item.reviewed_at)}
          {item.decision_reason ? `: ${item.decision_reason}` : ''}
        </p>
      )}
    </li>
  );
}

export function AdminReview() {
  const pending = useReviews('pending');
  const decided = useReviews('decided');
  return (
    <div className="space-y-6">
      <Card title={`Waiting for review (${pending.data?.count ?? '…'})`}>
        <p className="mb-2 text-sm text-slate-600 dark:text-slate-400">
          Flagged results rank below every unflagged one until approved; a rejected one leaves the rankings.
        </p>
        <QueryState data={pending.data} error={pending.error} label="Loading the queue…">
          {(page) =>
            page.data.length === 0 ? (
              <EmptyState
                icon="review"
                title="Nothing to review"
                action={{ label: 'See the leaderboards', href: '/leaderboard/' }}
                testId="review-empty"
              >
                No flagged result is waiting: every ranked result so far is in the rankings or decided.
              </EmptyState>
            ) : (
              <ul>
                {page.data.map((item) => (
                  <ReviewRow key={item.submission_id} item={item} />
                ))}
              </ul>
            )
          }
        </QueryState>
      </Card>
      <Card title="Decided">
        <QueryState data={decided.data} error={decided.error} label="Loading decisions…">
          {(page) =>
            page.data.length === 0 ? (
              <AdminEmpty text="No decision yet." />
            ) : (
              <ul data-testid="reviews-decided">
                {page.data.map((item) => (
                  <ReviewRow key={item.submission_id} item={item} />
                ))}
              </ul>
            )
          }
        </QueryState>
      </Card>
    </div>
  );
}
