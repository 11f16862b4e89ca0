// `/kernels/{kernelId}/compare/{a}/{b}`: any two attempts of a session (by attempt number), their figures and
// verdicts side by side above the diff, unified or side by side (?view=split). The pair is in the path, so a copied
// link (and the sign-in redirect, which keeps only the path) opens the same comparison.
import type { AgentSession, GenerationAttempt } from '@kernelforge/sdk';
import { useLocation } from 'wouter';
import { AppLink } from '../components/AppLink';
import { Card } from '../components/Card';
import { CompareFigures } from '../components/CompareFigures';
import { CopyButton } from '../components/CopyButton';
import { DiffLayoutTabs, useDiffLayout } from '../components/DiffLayoutTabs';
import { DiffView } from '../components/DiffView';
import { NotFoundFallback } from '../components/NotFoundFallback';
import { PageHeader } from '../components/PageHeader';
import { QueryState } from '../components/QueryState';
import { TimeChange } from '../components/TimeChange';
import { SelectField } from '../components/fields';
import { useSession } from '../hooks/useSession';
import { useSessionEvents } from '../hooks/useSessionEvents';
import { formatMs } from '../lib/format';
import type { PageProps } from '../lib/matchPath';

export const comparePath = (sessionId: string, a: number, b: number) => `/kernels/${sessionId}/compare/${a}/${b}`;

function Figures({ sessionId, attempt, side }: { sessionId: string; attempt: GenerationAttempt; side: 'A' | 'B' }) {
  return (
    <CompareFigures
      side={side}
      heading={
        <AppLink href={`/kernels/${sessionId}/attempts/${attempt.id}`}>Attempt #{attempt.attempt_number}</AppLink>
      }
      status={attempt.status}
      verdict={attempt.evaluation_state?.verdict}
      result={attempt.evaluation_state?.benchmarking_result}
    />
  );
}

function CompareView({ session, a, b }: { session: AgentSession; a: GenerationAttempt; b: GenerationAttempt }) {
  const [, navigate] = useLocation();
  const [layout, setLayout] = useDiffLayout();
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
          <TimeChange
            before={{ label: `#${a.attempt_number}`, result: a.evaluation_state?.benchmarking_result }}
            after={{ label: `#${b.attempt_number}`, result: b.evaluation_state?.benchmarking_result }}
          />
        </div>
      </Card>
      <Card title="Source" actions={<DiffLayoutTabs layout={layout} onChange={setLayout} />}>
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
