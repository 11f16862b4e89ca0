// `/kernels/{kernelId}/attempts/{attemptId}` ('Attempt #<n>'): source, diffs, evaluation report, submit to leaderboard.
import {
  type AgentSession,
  attemptFigure,
  bestAttempt,
  figureText,
  type GenerationAttempt,
  unrankedReason,
} from '@kernelforge/sdk';
import { useLocation } from 'wouter';
import { AppLink } from '../components/AppLink';
import { buttonClass } from '../components/Button';
import { Card } from '../components/Card';
import { EvaluationReport } from '../components/EvaluationReport';
import { NotFoundFallback } from '../components/NotFoundFallback';
import { PageHeader } from '../components/PageHeader';
import { ProblemName } from '../components/ProblemName';
import { QueryState } from '../components/QueryState';
import { SourceTabs } from '../components/SourceTabs';
import { LifecycleBadge } from '../components/StatusBadge';
import { SubmitAttemptButton } from '../components/SubmitAttemptButton';
import { useSession } from '../hooks/useSession';
import { useShortcuts } from '../hooks/useShortcut';
import { useSessionEvents, useStreamedText } from '../hooks/useSessionEvents';
import type { PageProps } from '../lib/matchPath';
import { languageName } from '../lib/problemKind';

function AttemptView({ session, attempt }: { session: AgentSession; attempt: GenerationAttempt }) {
  const streamed = useStreamedText(session.id);
  const previous = [...session.generation_attempts]
    .filter((a) => a.attempt_number < attempt.attempt_number && a.source)
    .sort((a, b) => b.attempt_number - a.attempt_number)[0];
  const best = bestAttempt(session);
  const figure = attemptFigure(attempt);
  const unranked = unrankedReason(attempt);
  const ordered = [...session.generation_attempts].sort((a, b) => a.attempt_number - b.attempt_number);
  const at = ordered.findIndex((a) => a.id === attempt.id);
  const prev = ordered[at - 1];
  const next = ordered[at + 1];
  const href = (a: GenerationAttempt) => `/kernels/${session.id}/attempts/${a.id}`;
  const [, navigate] = useLocation();
  // j and k step through the session's attempts (? lists the shortcuts).
  useShortcuts({
    j: next ? () => navigate(href(next)) : undefined,
    k: prev ? () => navigate(href(prev)) : undefined,
  });

  return (
    <>
      <nav aria-label="Breadcrumb" className="mb-3 flex flex-wrap items-center justify-between gap-2 text-sm">
        <ol className="flex min-w-0 flex-wrap items-center gap-1 text-slate-600 dark:text-slate-400">
          <li>
            <AppLink href="/sessions">My sessions</AppLink>
          </li>
          <li aria-hidden="true">/</li>
          <li className="min-w-0 truncate">
            <AppLink href={`/kernels/${session.id}`}>{session.label}</AppLink>
          </li>
          <li aria-hidden="true">/</li>
          <li aria-current="page">Attempt #{attempt.attempt_number}</li>
        </ol>
        <span className="flex gap-2">
          {prev ? (
            <AppLink
              href={href(prev)}
              className={buttonClass('secondary', 'sm')}
              rel="prev"
              title="Previous attempt (k)"
            >
              ← #{prev.attempt_number}
              <span className="sr-only"> previous attempt</span>
            </AppLink>
          ) : null}
          {next ? (
            <AppLink href={href(next)} className={buttonClass('secondary', 'sm')} rel="next" title="Next attempt (j)">
              #{next.attempt_number} →<span className="sr-only"> next attempt</span>
            </AppLink>
          ) : null}
        </span>
      </nav>
      <PageHeader
        title={`Attempt #${attempt.attempt_number}`}
        subtitle={
          <span className="flex flex-wrap items-center gap-2">
            <LifecycleBadge status={attempt.status} />
            <AppLink href={`/kernels/${session.id}`}>{session.label}</AppLink>
            <span aria-hidden="true">·</span>
            <ProblemName
              name={session.problem_name}
              href={`/leaderboard/${encodeURIComponent(session.problem_name)}`}
            />
            <span aria-hidden="true">·</span>
            <span className="font-mono text-xs">{languageName(attempt.language)}</span>
            {best?.id === attempt.id && figure ? (
              <span className="rounded bg-emerald-100 px-1.5 py-0.5 text-xs font-semibold text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200">
                best
              </span>
            ) : null}
          </span>
        }
        actions={<SubmitAttemptButton session={session} attempt={attempt} />}
      />
      {figure || unranked ? (
        <p
          className={`mb-4 text-sm ${unranked ? 'rounded-md bg-amber-50 px-4 py-3 text-amber-900 dark:bg-amber-950/50 dark:text-amber-100' : 'text-slate-700 dark:text-slate-300'}`}
          data-testid="attempt-figure"
        >
          {figure ? `Its time: ${figureText(figure)}.` : unranked}
        </p>
      ) : null}
      <Card className="mb-6">
        <SourceTabs attempt={attempt} previous={previous} best={best} />
      </Card>
      {attempt.explanation ? (
        <Card title="The agent's explanation" className="mb-6">
          <p className="text-sm wrap-anywhere whitespace-pre-line text-slate-700 dark:text-slate-300">
            {attempt.explanation}
          </p>
        </Card>
      ) : null}
      {attempt.status === 'generating' && streamed[attempt.id] ? (
        <Card title="The agent is writing…" className="mb-6">
          <pre aria-live="polite" className="max-h-72 overflow-auto text-xs whitespace-pre-wrap">
            {streamed[attempt.id]}
          </pre>
        </Card>
      ) : null}
      {attempt.error ? (
        <p
          role="alert"
          className="mb-6 rounded-md bg-rose-50 px-4 py-3 text-sm text-rose-800 dark:bg-rose-950/50 dark:text-rose-200"
        >
          {attempt.error}
        </p>
      ) : null}
      {attempt.evaluation_state ? (
        <EvaluationReport state={attempt.evaluation_state} />
      ) : (
        <p className="text-sm text-slate-500 dark:text-slate-400">Not evaluated yet.</p>
      )}
    </>
  );
}

export default function AttemptPage({ params }: PageProps) {
  const { kernelId, attemptId } = params;
  const { data, error } = useSession(kernelId);
  useSessionEvents(kernelId, data !== undefined && data.deleted_at === null);
  return (
    <QueryState data={data} error={error} label="Loading attempt…">
      {(session) => {
        const attempt = session.generation_attempts.find((a) => a.id === attemptId);
        return attempt ? (
          <AttemptView session={session} attempt={attempt} />
        ) : (
          <NotFoundFallback up={{ href: `/kernels/${session.id}`, label: `Back to ${session.label}` }} />
        );
      }}
    </QueryState>
  );
}
