// A submission as it is evaluated: status, verdict, rank and figures, then the source for its owner (near the top,
// as on an attempt), then the evaluation report.
import type { SubmissionDetail } from '@kernelforge/sdk';
import { formatDate, formatMs } from '../lib/format';
import { languageName } from '../lib/problemKind';
import { Card } from './Card';
import { CodeView } from './CodeView';
import { CopyButton } from './CopyButton';
import { EvaluationReport } from './EvaluationReport';
import { Spinner } from './Spinner';
import { SubmissionWait } from './SubmissionWait';
import { Speedup } from './Speedup';
import { ProblemName } from './ProblemName';
import { LifecycleBadge, VerdictBadge } from './StatusBadge';

export function SubmissionResult({ submission }: { submission: SubmissionDetail }) {
  const pending = submission.status === 'queued' || submission.status === 'evaluating';
  return (
    <div className="space-y-6">
      <Card>
        <dl className="grid grid-cols-2 gap-4 text-sm sm:grid-cols-3 lg:grid-cols-6" data-testid="submission-summary">
          <div>
            <dt className="text-xs text-slate-500 dark:text-slate-400">Status</dt>
            <dd className="mt-1">
              <LifecycleBadge status={submission.status} />
            </dd>
          </div>
          <div>
            <dt className="text-xs text-slate-500 dark:text-slate-400">Verdict</dt>
            <dd className="mt-1" data-testid="verdict">
              <VerdictBadge verdict={submission.verdict} />
            </dd>
          </div>
          <div>
            <dt className="text-xs text-slate-500 dark:text-slate-400">Rank</dt>
            <dd className="mt-1 font-semibold tabular-nums">
              {submission.purpose === 'test' ? 'Test run, not ranked' : (submission.rank ?? '—')}
            </dd>
          </div>
          <div>
            <dt className="text-xs text-slate-500 dark:text-slate-400">Time</dt>
            <dd className="mt-1 tabular-nums">{formatMs(submission.time_ms)}</dd>
          </div>
          <div>
            <dt className="text-xs text-slate-500 dark:text-slate-400">Speedup</dt>
            <dd className="mt-1 tabular-nums">
              <Speedup
                value={submission.speedup}
                interval={submission.evaluation_state?.benchmarking_result?.speedup_interval}
              />
            </dd>
          </div>
          <div>
            <dt className="text-xs text-slate-500 dark:text-slate-400">Submitted</dt>
            <dd className="mt-1 text-xs">{formatDate(submission.created_at)}</dd>
          </div>
        </dl>
        <p className="mt-4 text-sm text-slate-600 dark:text-slate-400">
          {submission.user.display_name} · <span className="font-mono text-xs">{submission.device}</span> ·{' '}
          {languageName(submission.language)} ·{' '}
          <ProblemName
            name={submission.problem_name}
            href={`/leaderboard/${encodeURIComponent(submission.problem_name)}`}
          />
        </p>
        {pending && submission.source !== null ? (
          <SubmissionWait
            id={submission.id}
            status={submission.status as 'queued' | 'evaluating'}
            device={submission.device}
            purpose={submission.purpose}
          />
        ) : pending ? (
          <Spinner label="Being evaluated… this page follows it to its verdict." />
        ) : null}
        {submission.error ? (
          <p role="alert" className="mt-3 text-sm text-rose-700 dark:text-rose-300">
            {submission.error}
          </p>
        ) : null}
      </Card>
      {submission.source !== null ? (
        <Card title="Source" actions={<CopyButton text={submission.source} label="Copy source" />}>
          <CodeView source={submission.source} label="Submitted source" language={submission.language} />
        </Card>
      ) : (
        <p className="text-sm text-slate-500 dark:text-slate-400">The source is visible to its author only.</p>
      )}
      {submission.evaluation_state ? <EvaluationReport state={submission.evaluation_state} /> : null}
    </div>
  );
}
