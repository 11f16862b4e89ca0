// Picks a problem from the catalogue with a search box; shows the chosen one's description and prototype (or, for a
// pytorch problem, its shapes and reference).
import type { Problem } from '@kernelforge/sdk';
import { useId, useMemo, useState } from 'react';
import { DataTable } from './DataTable';
import { controlClass } from './fields';
import { ProblemName } from './ProblemName';
import { TorchProblemSummary } from './TorchProblemSummary';

export function ProblemPicker({
  problems,
  value,
  onChange,
}: {
  problems: readonly Problem[];
  value: string;
  onChange: (name: string) => void;
}) {
  const [query, setQuery] = useState('');
  const searchId = useId();
  const shown = useMemo(() => {
    const q = query.trim().toLowerCase();
    if (!q) return problems;
    return problems.filter((p) => `${p.name} ${p.title} ${p.description}`.toLowerCase().includes(q));
  }, [problems, query]);

  return (
    <fieldset className="min-w-0">
      <legend className="mb-1 text-sm font-medium text-slate-700 dark:text-slate-200">Problem</legend>
      <label htmlFor={searchId} className="sr-only">
        Search problems
      </label>
      <input
        id={searchId}
        type="search"
        placeholder="Search problems…"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        className={controlClass}
      />
      <div className="mt-2 max-h-64 overflow-y-auto rounded-md border border-slate-200 dark:border-slate-700">
        {shown.length === 0 ? (
          <p className="p-3 text-sm text-slate-500 dark:text-slate-400">No problem matches “{query}”.</p>
        ) : (
          shown.map((problem) => (
            <label
              key={problem.name}
              className={`flex cursor-pointer items-start gap-3 border-b border-slate-100 px-3 py-2 text-sm last:border-0 dark:border-slate-800 ${
                value === problem.name
                  ? 'bg-indigo-50 dark:bg-indigo-950/60'
                  : 'hover:bg-slate-50 dark:hover:bg-slate-800/60'
              }`}
            >
              <input
                type="radio"
                name="problem"
                value={problem.name}
                checked={value === problem.name}
                onChange={() => onChange(problem.name)}
                className="mt-1 accent-indigo-600"
              />
              <span className="min-w-0">
                <ProblemName
                  name={problem.name}
                  title={problem.title}
                  className="text-[13px] font-medium text-slate-900 dark:text-slate-100"
                />
                <span className="flex min-w-0 items-center gap-1.5 text-xs text-slate-500 dark:text-slate-400">
                  <span className="truncate">level {problem.level}</span>
                  {problem.kind === 'pytorch' ? (
                    <span className="shrink-0 rounded bg-orange-100 px-1 font-sans text-[11px] font-semibold text-orange-800 dark:bg-orange-950 dark:text-orange-200">
                      PyTorch
                    </span>
                  ) : null}
                </span>
              </span>
            </label>
          ))
        )}
      </div>
    </fieldset>
  );
}

export function ProblemSummary({
  problem,
  deviceKind,
  referenceOpen,
}: {
  problem: Problem;
  /** pytorch problems: the kind of the chosen device, whose sizes to show. */
  deviceKind?: string | undefined;
  referenceOpen?: boolean;
}) {
  if (problem.kind === 'pytorch')
    return (
      <TorchProblemSummary
        problem={problem}
        deviceKind={deviceKind}
        {...(referenceOpen === undefined ? {} : { referenceOpen })}
      />
    );
  return (
    <div className="space-y-3 text-sm" data-testid="problem-summary">
      <p className="whitespace-pre-line text-slate-700 dark:text-slate-300">{problem.description}</p>
      <div>
        <p className="mb-1 text-xs font-semibold tracking-wide text-slate-500 uppercase dark:text-slate-400">
          Prototype
        </p>
        <pre className="overflow-x-auto rounded-md bg-slate-100 p-3 font-mono text-xs text-slate-900 dark:bg-slate-950 dark:text-slate-100">
          {problem.prototype}
        </pre>
      </div>
      {problem.signature.length > 0 ? (
        <DataTable
          variant="compact"
          classes={{
            table: 'w-full text-left text-xs',
            thead: 'text-slate-500 dark:text-slate-400',
            headRow: '',
            tbody: 'font-mono text-slate-800 dark:text-slate-200',
            row: 'border-t border-slate-100 dark:border-slate-800',
          }}
          caption="Signature"
          rows={problem.signature}
          rowKey={(arg) => arg.name}
          columns={[
            { id: 'argument', header: 'Argument', cell: (arg) => arg.name },
            { id: 'type', header: 'Type', cell: (arg) => arg.type },
            { id: 'role', header: 'Role', cell: (arg) => arg.role },
            { id: 'shape', header: 'Shape', cell: (arg) => (arg.shape ? `[${arg.shape.join(', ')}]` : '—') },
          ]}
        />
      ) : null}
    </div>
  );
}
