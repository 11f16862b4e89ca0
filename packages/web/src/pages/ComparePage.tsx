// `/kernels/{kernelId}/compare/{a}/{b}`: any two attempts of a session (by attempt number), their figures and
// verdicts side by side above the diff, unified or side by side (?view=split). The pair is in the path, so a copied
// link (and the sign-in redirect, which keeps only the path) opens the same comparison.
import type { AgentSession, GenerationAttempt } from '@kernelforge/sdk';
import { useLocation } from 'wouter';
import { AppLink } from '../components/AppLink';
import { Card } from '../components/Card';
import { CopyButton } from '../components/CopyButton';
import { DiffView } from '../components/DiffView';
import { NotFoundFallback } from '../components/NotFoundFallback';
import { PageHeader } from '../components/PageHeader';
import { QueryState } from '../components/QueryState';
import { Speedup, TimeWithSpread } from '../components/Speedup';
import { LifecycleBadge, VerdictBadge } from '../components/StatusBadge';
import { SelectField } from '../components/fields';
import { useQueryParam } from '../hooks/useQueryParam';
import { useSession } from '../hooks/useSession';
import { useSessionEvents } from '../hooks/useSessionEvents';
import { formatMs, formatSpeedup } from '../lib/format';
import type { PageProps } from '../lib/matchPath';
import { withinNoise } from '../lib/noise';

export const comparePath = (sessionId: string, a: number, b: number) => `/kernels/${sessionId}/compare/${a}/${b}`;

function Figures({ sessionId, attempt, side }: { sessionId: string; attempt: GenerationAttempt; side: 'A' | 'B' }) {
  const result = attempt.evaluation_state?.benchmarking_result;
  return (
    <div className="min-w-0" data-testid={`figures-${side}`}>
      <p className="mb-2 text-sm font-semibold text-slate-900 dark:text-white">
        {side}:{' '}
        <AppLink href={`/kernels/${sessionId}/attempts/${attempt.id}`}>Attempt #{attempt.attempt_number}</AppLink>
      </p>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-slate-500 dark:text-slate-400">Status</dt>
        <dd>
          <LifecycleBadge status={attempt.status} />
        </dd>
        <dt className="text-slate-500 dark:text-slate-400">Verdict</dt>
        <dd>
          <VerdictBadge verdict={attempt.evaluation_state?.verdict} />
        </dd>
        <dt className="text-slate-500 dark:text-slate-400">Time</dt>
        <dd className="tabular-nums">
          <TimeWithSpread ms={result?.optimized_time} interval={result?.optimized_time_interval} />
        </dd>
        <dt className="text-slate-500 dark:text-slate-400">Speedup</dt>
        <dd className="tabular-nums">
          <Speedup value={result?.speedup} interval={result?.speedup_interval} />
        </dd>
      </dl>
    </div>
  );
}

/** B against A in words: how much faster or slower, or within noise. */
function Change({ a, b }: { a: GenerationAttempt; b: GenerationAttempt }) {
  const ra = a.evaluation_state?.benchmarking_result;
  const rb = b.evaluation_state?.benchmarking_result;
  if (!ra || !rb || !ra.optimized_time || !rb.optimized_time)
    return <p className="text-sm text-slate-500 dark:text-slate-400">Both need a timed result to compare figures.</p>;
  const ratio = ra.optimized_time / rb.optimized_time;
  const same = withinNoise(ra, rb);
  return (
    <p
      className="text-sm"
      data-testid="compare-change"
      title={
        same ? 'within noise: their 95% time intervals overlap, so the 95% interval of their ratio holds 1' : undefined
      }
    >
      {same ? (
        <>
          #{b.attempt_number} and #{a.attempt_number} take the same time, within noise ({formatSpeedup(ratio)}).
        </>
      ) : ratio >= 1 ? (
        <>
          #{b.attempt_number} is <strong>{formatSpeedup(ratio)} faster</strong> than #{a.attempt_number}.
        </>
      ) : (
        <>
          #{b.attempt_number} is{' '}
          <strong className="text-rose-700 dark:text-rose-300">{formatSpeedup(1 / ratio)} slower</strong> than #
          {a.attempt_number}.
        </>
      )}
    </p>
  );
}

function CompareView({ session, a, b }: { session: AgentSession; a: GenerationAttempt; b: GenerationAttempt }) {
  const [, navigate] = useLocation();
  const [view, setView] = useQueryParam('view');
  const layout = view === 'split' ? 'split' : 'unified';
  const ordered = [...session.generation_attempts].sort((x, y) => x.attempt_number - y.attempt_number);
  const go = (na: number, nb: number) => navigate(`${comparePath(session.id, na, nb)}${window.location.search}`);
  const option = (x: GenerationAttempt) => (
    <option key={x.id} value={x.attempt_number}>
      #{x.attempt_number} · {x.evaluation_state?.verdict?.replace(/_/g, ' ') ?? x.status}
      {x.evaluation_state?.benchmarking_result
        ? ` · ${formatMs(x.evaluation_state.benchmarking_result.optimized_time)}`
        : ''}
    </option>
  );
  return (
    <>
      <nav aria-label="Breadcrumb" className="mb-3 text-sm text-slate-600 dark:text-slate-400">
        <ol className="flex min-w-0 flex-wrap items-center gap-1">
          <li>
            <AppLink href="/sessions">My sessions</AppLink>
          </li>
          <li aria-hidden="true">/</li>
          <li className="min-w-0 truncate">
            <AppLink href={`/kernels/${session.id}`}>{session.label}</AppLink>
          </li>
          <li aria-hidden="true">/</li>
          <li aria-current="page">Compare</li>
        </ol>
      </nav>
      <PageHeader
        title={`Compare #${a.attempt_number} and #${b.attempt_number}`}
        subtitle={session.label}
        actions={<CopyButton text={window.location.href} label="Copy link" />}
      />
      <Card className="mb-6">
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectField
            label="A (before)"
            value={a.attempt_number}
            onChange={(e) => go(Number(e.target.value), b.attempt_number)}
          >
            {ordered.map(option)}
          </SelectField>
          <SelectField
            label="B (after)"
            value={b.attempt_number}
            onChange={(e) => go(a.attempt_number, Number(e.target.value))}
          >
            {ordered.map(option)}
          </SelectField>
        </div>
        <div className="mt-4 grid gap-4 sm:grid-cols-2">
          <Figures sessionId={session.id} attempt={a} side="A" />
          <Figures sessionId={session.id} attempt={b} side="B" />
        </div>
        <div className="mt-4">
          <Change a={a} b={b} />
        </div>
      </Card>
      <Card
        title="Source"
        actions={
          <div
            role="tablist"
            aria-label="Diff layout"
            className="flex gap-1 rounded-lg bg-slate-100 p-1 dark:bg-slate-800"
          >
            {(
              [
                ['unified', 'Unified'],
                ['split', 'Side by side'],
              ] as const
            ).map(([id, label]) => (
              <button
                key={id}
                type="button"
                role="tab"
                aria-selected={layout === id}
                onClick={() => setView(id === 'split' ? 'split' : '')}
                className={`rounded-md px-3 py-1 text-sm font-medium ${
                  layout === id
                    ? 'bg-white text-slate-900 shadow dark:bg-slate-950 dark:text-white'
                    : 'text-slate-600 dark:text-slate-300'
                }`}
              >
                {label}
              </button>
            ))}
          </div>
        }
      >
        {a.source && b.source ? (
          <DiffView
            before={a.source}
            after={b.source}
            label={`Diff of attempt #${a.attempt_number} against #${b.attempt_number}`}
            language={b.language}
            layout={layout}
          />
        ) : (
          <p className="text-sm text-slate-500 dark:text-slate-400">
            {a.source ? `#${b.attempt_number}` : `#${a.attempt_number}`} has no source yet.
          </p>
        )}
      </Card>
    </>
  );
}

export default function ComparePage({ params }: PageProps) {
  const { kernelId, a, b } = params;
  const { data, error } = useSession(kernelId);
  useSessionEvents(kernelId, data !== undefined && data.deleted_at === null);
  return (
    <QueryState data={data} error={error} label="Loading session…">
      {(session) => {
        const find = (n: string | undefined) => session.generation_attempts.find((x) => String(x.attempt_number) === n);
        const first = find(a);
        const second = find(b);
        return first && second ? (
          <CompareView session={session} a={first} b={second} />
        ) : (
          <NotFoundFallback up={{ href: `/kernels/${session.id}`, label: `Back to ${session.label}` }} />
        );
      }}
    </QueryState>
  );
}
