// The attempt's source, its diff against the previous attempt, and against the best; the tab is in the address
// (?tab=previous|best), and "Compare…" opens any pair of the session's attempts.
import type { GenerationAttempt } from '@kernelforge/sdk';
import { useId } from 'react';
import { useQueryParam } from '../hooks/useQueryParam';
import { AppLink } from './AppLink';
import { buttonClass } from './Button';
import { CodeView } from './CodeView';
import { CopyButton } from './CopyButton';
import { DiffView } from './DiffView';

type View = 'source' | 'previous' | 'best';

export function SourceTabs({
  attempt,
  previous,
  best,
}: {
  attempt: GenerationAttempt;
  previous: GenerationAttempt | undefined;
  best: GenerationAttempt | undefined;
}) {
  const [tab, setTab] = useQueryParam('tab');
  const view: View = tab === 'previous' || tab === 'best' ? tab : 'source';
  const setView = (next: View) => setTab(next === 'source' ? '' : next);
  const other = previous ?? (best && best.id !== attempt.id ? best : undefined);
  const compareHref = other
    ? `/kernels/${attempt.session_id}/compare/${other.attempt_number}/${attempt.attempt_number}`
    : undefined;
  const baseId = useId();
  const source = attempt.source ?? '';
  const tabs: { id: View; label: string; enabled: boolean }[] = [
    { id: 'source', label: 'Source', enabled: true },
    {
      id: 'previous',
      label: previous ? `Diff vs #${previous.attempt_number}` : 'Diff vs previous',
      enabled: Boolean(previous?.source),
    },
    {
      id: 'best',
      label: best ? `Diff vs best (#${best.attempt_number})` : 'Diff vs best',
      enabled: Boolean(best?.source) && best?.id !== attempt.id,
    },
  ];
  return (
    <div>
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <div
          role="tablist"
          aria-label="Source views"
          className="flex gap-1 rounded-lg bg-slate-100 p-1 dark:bg-slate-800"
        >
          {tabs.map((tab) => (
            <button
              key={tab.id}
              type="button"
              role="tab"
              id={`${baseId}-${tab.id}`}
              aria-selected={view === tab.id}
              aria-controls={`${baseId}-panel`}
              disabled={!tab.enabled}
              onClick={() => setView(tab.id)}
              className={`rounded-md px-3 py-1 text-sm font-medium disabled:opacity-40 ${
                view === tab.id
                  ? 'bg-white text-slate-900 shadow dark:bg-slate-950 dark:text-white'
                  : 'text-slate-600 dark:text-slate-300'
              }`}
            >
              {tab.label}
            </button>
          ))}
        </div>
        <span className="flex flex-wrap gap-2">
          {compareHref ? (
            <AppLink href={compareHref} className={buttonClass('secondary', 'sm')}>
              Compare…
            </AppLink>
          ) : null}
          {source ? <CopyButton text={source} label="Copy source" /> : null}
        </span>
      </div>
      <div role="tabpanel" id={`${baseId}-panel`} aria-labelledby={`${baseId}-${view}`}>
        {!source ? (
          <p className="text-sm text-slate-500 dark:text-slate-400">No source yet.</p>
        ) : view === 'previous' && previous?.source ? (
          <DiffView
            before={previous.source}
            after={source}
            label={`Diff against attempt #${previous.attempt_number}`}
            language={attempt.language}
          />
        ) : view === 'best' && best?.source ? (
          <DiffView
            before={best.source}
            after={source}
            label={`Diff against the best attempt #${best.attempt_number}`}
            language={attempt.language}
          />
        ) : (
          <CodeView
            source={source}
            label={`Source of attempt #${attempt.attempt_number}`}
            language={attempt.language}
          />
        )}
      </div>
    </div>
  );
}
