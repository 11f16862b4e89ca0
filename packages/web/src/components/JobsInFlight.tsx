// The admin's jobs in flight: what each works on (linked), whose it is, where it runs, and Cancel (which stops the
// work it belongs to, as its owner's Stop would, and takes the job from its runner).
import type { AdminStatus } from '@kernelforge/sdk';
import { toast } from 'sonner';
import { useAction } from '../hooks/useAction';
import { useCancelJob } from '../hooks/useAdminStatus';
import { formatDate } from '../lib/format';
import { AppLink } from './AppLink';
import { ConfirmButton } from './ConfirmButton';

type Job = AdminStatus['in_flight'][number];

export function JobsInFlight({ jobs, onChange }: { jobs: readonly Job[]; onChange: () => void }) {
  const { busy, run } = useAction();
  const cancelJob = useCancelJob();
  if (jobs.length === 0)
    return (
      <p className="text-sm text-slate-500 dark:text-slate-400">Nothing is being evaluated or generated right now.</p>
    );
  return (
    <ul className="divide-y divide-slate-100 dark:divide-slate-800">
      {jobs.map((j) => (
        <li key={j.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2 text-sm" data-testid="job-in-flight">
          <span className="font-medium">{j.kind}</span>
          {j.href ? (
            <AppLink href={j.href}>{j.target ?? 'Open'}</AppLink>
          ) : (
            <span className="text-slate-600 dark:text-slate-300">{j.target ?? 'no page'}</span>
          )}
          <span className="break-all" data-testid="job-owner">
            {j.owner ? j.owner.email : 'no owner'}
          </span>
          <span className="font-mono text-xs break-all">{j.device ?? 'any replica'}</span>
          <span className="text-xs text-slate-500 dark:text-slate-400">
            try {j.attempts} · since {formatDate(j.created_at)}
          </span>
          <span className="ml-auto">
            <ConfirmButton
              size="sm"
              variant="danger"
              disabled={busy}
              aria-label={`Cancel ${j.target ?? j.kind}`}
              question={`Cancel this job? ${j.target ?? 'Its work'} stops${j.owner ? `, and ${j.owner.email} sees it stopped` : ''}.`}
              confirmLabel="Cancel the job"
              onConfirm={() =>
                void run(async () => {
                  const message = await cancelJob(j.id);
                  toast.success(message);
                  onChange();
                }, 'Failed to cancel the job')
              }
            >
              Cancel
            </ConfirmButton>
          </span>
        </li>
      ))}
    </ul>
  );
}
