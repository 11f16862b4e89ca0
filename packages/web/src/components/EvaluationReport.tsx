// An evaluation's report: verdict, compile log, correctness per case, timing per case, the profile (the roofline point
// beside the build facts of C and C++: assembly, vectorization, counters) (and, for pytorch problems, the sizes used,
// the compiled baseline and the toolchains). Another user's result comes with its
// figures only (`redacted`): what was left out is said, not shown empty.
import {
  type CorrectnessReport,
  cacheNote,
  type EvaluationState,
  NOTHING_COMPILED,
  timingConditions,
} from '@kernelforge/sdk';
import { useState } from 'react';
import { useDevices } from '../hooks/useDevices';
import { formatMs, formatNumber, formatPercent } from '../lib/format';
import { Button } from './Button';
import { Card } from './Card';
import { DataTable } from './DataTable';
import { EvaluationProfile } from './EvaluationProfile';
import { Roofline } from './Roofline';
import { Speedup, TimeWithSpread } from './Speedup';
import { VerdictBadge } from './StatusBadge';
import { TorchEvaluationFacts } from './TorchEvaluationFacts';

function sizes(record: Record<string, number>): string {
  return Object.entries(record)
    .map(([k, v]) => `${k}=${v}`)
    .join(', ');
}

const td = 'py-1.5 pr-4 tabular-nums';

const exp = (v: number | null | undefined) => (v === null || v === undefined ? '—' : v.toExponential(2));
const worst = (values: (number | null)[]) =>
  values.reduce<number | null>((m, v) => (v !== null && Number.isFinite(v) && (m === null || v > m) ? v : m), null);

/** One line for the whole check (cases passed, worst errors); the table lists failures, all cases on request. */
function Correctness({ report, redacted }: { report: CorrectnessReport; redacted: boolean }) {
  const [all, setAll] = useState(false);
  const failed = report.cases.filter((c) => !c.passed);
  const passed = report.cases.length - failed.length;
  const rows = all ? report.cases : failed;
  return (
    <Card
      title={`Correctness (${report.passed ? 'passed' : 'failed'})`}
      actions={
        report.cases.length > 0 ? (
          <Button size="sm" aria-expanded={all} onClick={() => setAll((a) => !a)}>
            {all ? 'Show failures only' : `Show all ${report.cases.length} cases`}
          </Button>
        ) : null
      }
    >
      <p data-testid="correctness-summary" className="text-sm text-slate-700 dark:text-slate-300">
        <span
          className={
            failed.length
              ? 'font-semibold text-rose-700 dark:text-rose-300'
              : 'font-semibold text-emerald-700 dark:text-emerald-400'
          }
        >
          {passed} of {report.cases.length} cases passed
        </span>
        {' · '}worst abs error {exp(worst(report.cases.map((c) => c.max_abs_error)))}
        {' · '}worst rel error {exp(worst(report.cases.map((c) => c.max_rel_error)))}
      </p>
      {rows.length > 0 ? (
        <div className="mt-3 overflow-x-auto">
          <DataTable
            variant="plain"
            classes={{ cell: td }}
            testId="correctness-cases"
            rows={rows}
            // A case name repeats across seeds and distributions.
            rowKey={(_, i) => i}
            rowTestId="correctness-case"
            columns={[
              { id: 'case', header: 'Case', cell: (c) => c.name },
              { id: 'sizes', header: 'Sizes', className: 'font-mono text-xs', cell: (c) => sizes(c.sizes) },
              {
                id: 'inputs',
                header: 'Inputs',
                className: 'text-xs',
                cell: (c) => `${c.distribution}, seed ${c.seed}`,
              },
              {
                id: 'result',
                header: 'Result',
                cell: (c) =>
                  c.passed ? (
                    <span className="text-emerald-700 dark:text-emerald-400">pass</span>
                  ) : (
                    <span className="text-rose-700 dark:text-rose-400">fail</span>
                  ),
              },
              { id: 'abs', header: 'Max abs error', align: 'right', cell: (c) => exp(c.max_abs_error) },
              { id: 'rel', header: 'Max rel error', align: 'right', cell: (c) => exp(c.max_rel_error) },
              !redacted && { id: 'message', header: 'Message', className: 'text-xs', cell: (c) => c.message ?? '' },
            ]}
          />
        </div>
      ) : null}
    </Card>
  );
}

export function EvaluationReport({ state }: { state: EvaluationState }) {
  const bench = state.benchmarking_result;
  const devices = useDevices();
  const device = devices.data?.data.find((d) => d.id === state.environment?.device_id);
  // A PyTorch module has no flop count: its GFLOP/s are unknown (not zero), and it has no roofline point.
  const noFlops = state.sizes_used !== undefined;
  const gflops = (value: number) => (noFlops ? '—' : formatNumber(value));
  return (
    <div className="space-y-6">
      <Card title="Verdict">
        <p className="flex flex-wrap items-center gap-3 text-sm">
          <VerdictBadge verdict={state.verdict} />
          <span className="text-slate-700 dark:text-slate-300">{state.message}</span>
        </p>
        {bench ? (
          <dl className="mt-4 grid grid-cols-2 gap-4 text-sm sm:grid-cols-3 lg:grid-cols-6" data-testid="figures">
            {[
              ['Time', <TimeWithSpread key="t" ms={bench.optimized_time} interval={bench.optimized_time_interval} />],
              ['Baseline', formatMs(bench.baseline_time)],
              ['Speedup', <Speedup key="s" value={bench.speedup} interval={bench.speedup_interval} />],
              ['GB/s', formatNumber(bench.gbps)],
              ['GFLOP/s', gflops(bench.gflops)],
              ['Fraction of peak', formatPercent(bench.fraction_of_peak)],
            ].map(([term, value]) => (
              <div key={String(term)} className="rounded-md bg-slate-50 p-3 dark:bg-slate-800/60">
                <dt className="text-xs text-slate-500 dark:text-slate-400">{term}</dt>
                <dd className="mt-1 text-lg font-semibold text-slate-900 tabular-nums dark:text-white">{value}</dd>
              </div>
            ))}
          </dl>
        ) : null}
        {bench?.load ? (
          <p className="mt-3 text-xs text-slate-600 dark:text-slate-400" data-testid="timing-conditions">
            {timingConditions(bench.load)}
          </p>
        ) : null}
        {bench?.flagged_for_review ? (
          <p className="mt-3 text-sm text-amber-700 dark:text-amber-300">
            Flagged for review: {bench.review_reasons.join('; ')}
          </p>
        ) : null}
        {state.redacted ? (
          <p className="mt-3 text-xs text-slate-500 dark:text-slate-400" data-testid="figures-only">
            Figures only: the compile log, the program's output and the messages of failed checks are visible to the
            author only.
          </p>
        ) : null}
        <TorchEvaluationFacts state={state} />
        {state.environment ? (
          <p className="mt-3 text-xs text-slate-500 dark:text-slate-400">
            {state.environment.device_name} · {state.environment.compiler} {state.environment.flags.join(' ')} ·{' '}
            {state.environment.sandbox}
          </p>
        ) : null}
      </Card>
      {state.compile && state.compile.compiler !== NOTHING_COMPILED ? (
        <Card title={`Compile log (${state.compile.ok ? 'ok' : 'failed'}, ${formatMs(state.compile.duration_ms)})`}>
          <p className="mb-2 font-mono text-xs text-slate-600 dark:text-slate-400">
            {state.compile.compiler} {state.compile.flags.join(' ')}
          </p>
          {state.redacted ? (
            <p className="text-sm text-slate-500 dark:text-slate-400">The compile log is visible to the author only.</p>
          ) : (
            <pre
              aria-label="Compile log"
              tabIndex={0}
              className="max-h-72 overflow-auto rounded-md bg-slate-900 p-3 font-mono text-xs whitespace-pre-wrap text-slate-100"
            >
              {state.compile.log || '(empty)'}
            </pre>
          )}
        </Card>
      ) : null}
      {state.correctness ? <Correctness report={state.correctness} redacted={state.redacted === true} /> : null}
      {bench && bench.cases.length > 0 ? (
        <Card title="Timing per case">
          <div className="overflow-x-auto">
            <DataTable
              variant="plain"
              classes={{ cell: td }}
              rows={bench.cases}
              // Case names may repeat.
              rowKey={(_, i) => i}
              columns={[
                {
                  id: 'case',
                  header: 'Case',
                  cell: (c) => (
                    <>
                      {c.name} <span className="font-mono text-xs text-slate-500">{sizes(c.sizes)}</span>
                      {cacheNote(c) ? (
                        <div className="text-xs text-slate-600 dark:text-slate-400" data-testid="case-cache">
                          {cacheNote(c)}
                        </div>
                      ) : null}
                    </>
                  ),
                },
                { id: 'mean', header: 'Mean', align: 'right', cell: (c) => formatMs(c.optimized.mean_ms) },
                {
                  id: 'median',
                  header: 'Median',
                  align: 'right',
                  cell: (c) => <TimeWithSpread ms={c.optimized.median_ms} interval={c.optimized_interval} />,
                },
                { id: 'min', header: 'Min', align: 'right', cell: (c) => formatMs(c.optimized.min_ms) },
                { id: 'max', header: 'Max', align: 'right', cell: (c) => formatMs(c.optimized.max_ms) },
                { id: 'samples', header: 'Samples', align: 'right', cell: (c) => c.optimized.samples },
                {
                  id: 'baseline',
                  header: 'Baseline median',
                  align: 'right',
                  cell: (c) => formatMs(c.baseline.median_ms),
                },
                {
                  id: 'speedup',
                  header: 'Speedup',
                  align: 'right',
                  cell: (c) => <Speedup value={c.speedup} interval={c.speedup_interval} />,
                },
                { id: 'gbps', header: 'GB/s', align: 'right', cell: (c) => formatNumber(c.gbps) },
                { id: 'gflops', header: 'GFLOP/s', align: 'right', cell: (c) => gflops(c.gflops) },
                {
                  id: 'peak',
                  header: 'Of peak',
                  align: 'right',
                  cell: (c) => formatPercent(c.fraction_of_peak),
                },
              ]}
            />
          </div>
        </Card>
      ) : null}
      {/* C and C++ on the cpu: the Profile, its roofline point beside the build facts (another user's: why not). */}
      {state.compile?.facts || (state.redacted && state.compile?.ok && !noFlops) ? (
        <EvaluationProfile state={state} bench={bench} peaks={device?.peaks} />
      ) : bench && device ? (
        <Card title="Roofline">
          {noFlops ? (
            <p className="text-sm text-slate-600 dark:text-slate-400" data-testid="no-roofline">
              A PyTorch module has no flop count, so it has no point on the roofline. GB/s and the fraction of peak
              count its parameters, inputs and outputs read or written once: the least traffic a call needs.
            </p>
          ) : (
            <Roofline result={bench} peaks={device.peaks} />
          )}
        </Card>
      ) : null}
      {state.stderr ? (
        <Card title="Program output">
          <pre
            tabIndex={0}
            className="max-h-60 overflow-auto rounded-md bg-slate-900 p-3 font-mono text-xs whitespace-pre-wrap text-slate-100"
          >
            {state.stderr}
          </pre>
        </Card>
      ) : null}
    </div>
  );
}
