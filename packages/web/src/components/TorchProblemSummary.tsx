// A pytorch problem at a glance: kind and level, the input shapes on a device kind with the sizes behind them, the
// scaling note, and the KernelBench reference highlighted as Python.
import type { Problem, TorchCase } from '@kernelforge/sdk';
import { useState } from 'react';
import { constantsLabel, sizesKind, torchValueLabel } from '../lib/problemKind';
import { CodeView } from './CodeView';

const chip =
  'rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs break-all text-slate-800 dark:bg-slate-800 dark:text-slate-100';
const term = 'text-xs font-semibold tracking-wide text-slate-500 uppercase dark:text-slate-400';

/** `PyTorch` and `Level N`, side by side. */
export function ProblemKindBadges({ problem }: { problem: Problem }) {
  return (
    <span className="inline-flex flex-wrap items-center gap-1.5" data-testid="problem-kind">
      {problem.kind === 'pytorch' ? (
        <span className="rounded-full bg-orange-100 px-2 py-0.5 text-xs font-semibold text-orange-800 dark:bg-orange-950 dark:text-orange-200">
          PyTorch
        </span>
      ) : null}
      <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-700 dark:bg-slate-800 dark:text-slate-200">
        Level {problem.level}
      </span>
    </span>
  );
}

function Values({ label, values }: { label: string; values: TorchCase['inputs'] }) {
  if (values.length === 0) return null;
  return (
    <>
      <dt className={term}>{label}</dt>
      <dd className="flex min-w-0 flex-wrap gap-1.5">
        {values.map((v, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a case's values are positional and never reorder.
          <code key={i} className={chip}>
            {torchValueLabel(v)}
          </code>
        ))}
      </dd>
    </>
  );
}

/** The benchmark inputs, outputs and sizes on one kind of device, or why there are none. */
export function TorchShapes({ problem, kind }: { problem: Problem; kind: string | undefined }) {
  const sizes = kind ? problem.torch?.sizes[kind] : undefined;
  if (!kind || !sizes)
    return (
      <p className="text-xs text-slate-500 dark:text-slate-400" data-testid="torch-shapes">
        No sizes measured{kind ? ` for ${kind} devices` : ''}.
      </p>
    );
  const many = sizes.benchmark.length > 1;
  return (
    <div data-testid="torch-shapes" className="space-y-2">
      <p className="text-xs text-slate-600 dark:text-slate-300">
        Benchmark shapes on <span className="font-semibold">{kind}</span> devices
        {sizes.fits ? null : (
          <span className="text-amber-700 dark:text-amber-300">
            {' '}
            (do not fit its {Math.round(sizes.budget_bytes / 2 ** 20)} MiB budget: unavailable there)
          </span>
        )}
      </p>
      {sizes.benchmark.map((c) => (
        <dl key={c.name} className="grid grid-cols-[auto_minmax(0,1fr)] items-baseline gap-x-3 gap-y-1.5">
          {many ? <p className="col-span-2 text-xs font-medium">{c.name}</p> : null}
          <Values label="Inputs" values={c.inputs} />
          <Values label="Init args" values={c.init_inputs} />
          <Values label="Outputs" values={c.outputs} />
          {Object.keys(c.constants).length ? (
            <>
              <dt className={term}>Sizes</dt>
              <dd className="font-mono text-xs break-words text-slate-700 dark:text-slate-300">
                {constantsLabel(c.constants)}
              </dd>
            </>
          ) : null}
        </dl>
      ))}
    </div>
  );
}

export function TorchProblemSummary({
  problem,
  deviceKind,
  referenceOpen = true,
}: {
  problem: Problem;
  /** The kind of the chosen device (`cpu`, `cuda`): whose scaled sizes to show. */
  deviceKind: string | undefined;
  /** Whether the reference starts unfolded (the submit page already has it, as ModelNew, in its editor). */
  referenceOpen?: boolean;
}) {
  const torch = problem.torch;
  const kind = deviceKind ?? sizesKind(problem, undefined);
  // The reference's code view is made once the section opens: folded, it costs the page no CodeMirror download.
  const [showReference, setShowReference] = useState(referenceOpen);
  return (
    <div className="min-w-0 space-y-3 text-sm" data-testid="problem-summary">
      <ProblemKindBadges problem={problem} />
      {problem.description.trim() ? (
        <p className="whitespace-pre-line text-slate-700 dark:text-slate-300">{problem.description.trim()}</p>
      ) : null}
      <TorchShapes problem={problem} kind={kind} />
      {torch?.scaling_note ? (
        <p className="text-xs text-slate-500 dark:text-slate-400" data-testid="scaling-note">
          <span className="font-medium">Sizes: </span>
          {torch.scaling_note}
        </p>
      ) : null}
      <p className="text-xs text-slate-500 dark:text-slate-400">
        A solution is a Python file defining <code className="font-mono">class ModelNew</code> with the same constructor
        and forward as <code className="font-mono">Model</code>.
      </p>
      {problem.reference_source ? (
        <details open={referenceOpen} onToggle={(e) => setShowReference(e.currentTarget.open)} className="min-w-0">
          <summary className="cursor-pointer text-xs font-semibold tracking-wide text-slate-500 uppercase dark:text-slate-400">
            Reference (KernelBench)
          </summary>
          {showReference ? (
            <div className="mt-2">
              <CodeView source={problem.reference_source} label="Reference source" language="pytorch" />
            </div>
          ) : null}
        </details>
      ) : null}
    </div>
  );
}
