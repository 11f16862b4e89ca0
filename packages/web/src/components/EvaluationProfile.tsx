// An evaluation's "Profile": why it is as fast as it is. The roofline point beside the compiler's vectorization report
// (cpu) or each kernel's registers, spills, shared memory and occupancy (cuda), and the hardware counters (or why there
// are none), or for PyTorch what one ModelNew call ran and its Triton kernels, then the assembly of `solution` (or the kernels' SASS or PTX) with its hot loop marked.
import type { BenchmarkingResult, BuildFacts, DevicePeaks, EvaluationState } from '@kernelforge/sdk';
import { Card } from './Card';
import { CodeView } from './CodeView';
import { DataTable, type TableClasses } from './DataTable';
import { Roofline } from './Roofline';

const th = 'py-1.5 pr-3 font-medium';
const td = 'py-1 pr-3 align-top';
const CAPTION = 'mb-1 text-left text-xs text-slate-500 dark:text-slate-400';
const PROFILE_TABLE: Partial<TableClasses> = { th, cell: td };

function Vectorization({ loops }: { loops: BuildFacts['vectorization'] }) {
  if (loops === null)
    return (
      <p className="text-sm text-slate-600 dark:text-slate-400">No vectorization report (the compiler is not gcc).</p>
    );
  if (loops.length === 0)
    return <p className="text-sm text-slate-600 dark:text-slate-400">gcc reports no loops in the source.</p>;
  return (
    <DataTable
      variant="plain"
      classes={PROFILE_TABLE}
      testId="vectorization"
      caption="gcc -fopt-info-vec-all, per loop of the source"
      captionClassName={CAPTION}
      rows={loops}
      rowKey={(l) => `${l.line}:${l.column}`}
      columns={[
        { id: 'line', header: 'Line', className: 'tabular-nums', cell: (l) => l.line },
        {
          id: 'vectorized',
          header: 'Vectorized',
          cell: (l) =>
            l.vectorized ? (
              <span className="text-emerald-700 dark:text-emerald-400">yes</span>
            ) : (
              <span className="text-rose-700 dark:text-rose-400">no</span>
            ),
        },
        {
          id: 'width',
          header: 'Width',
          className: 'tabular-nums',
          cell: (l) => l.widths.map((w) => `${w * 8}-bit`).join(', ') || '—',
        },
        { id: 'notes', header: 'Why not / notes', className: 'text-xs', cell: (l) => l.reasons.join('; ') || '—' },
      ]}
    />
  );
}

const kib = (b: number) => (b >= 1024 ? `${(b / 1024).toFixed(b % 1024 ? 1 : 0)} KiB` : `${b} B`);

function CudaKernels({ cuda }: { cuda: NonNullable<BuildFacts['cuda']> }) {
  if (cuda.kernels.length === 0)
    return <p className="text-sm text-slate-600 dark:text-slate-400">ptxas reported no kernels.</p>;
  return (
    <DataTable
      variant="plain"
      classes={PROFILE_TABLE}
      testId="cuda-kernels"
      caption={`ptxas -v for ${cuda.arch}, per kernel; theoretical occupancy per SM (${cuda.limits_source})`}
      captionClassName={CAPTION}
      rows={cuda.kernels}
      rowKey={(k) => k.mangled}
      columns={[
        { id: 'kernel', header: 'Kernel', className: 'font-mono text-xs break-all', cell: (k) => k.name },
        { id: 'registers', header: 'Registers', className: 'tabular-nums', cell: (k) => k.registers },
        {
          id: 'spills',
          header: 'Spills (st/ld)',
          className: 'tabular-nums',
          cell: (k) =>
            k.spill_store_bytes || k.spill_load_bytes ? (
              <span className="text-rose-700 dark:text-rose-400">
                {k.spill_store_bytes} B / {k.spill_load_bytes} B
              </span>
            ) : (
              'none'
            ),
        },
        { id: 'stack', header: 'Stack', className: 'tabular-nums', cell: (k) => kib(k.stack_bytes) },
        { id: 'shared', header: 'Shared', className: 'tabular-nums', cell: (k) => kib(k.shared_bytes) },
        {
          id: 'occupancy',
          header: 'Occupancy',
          className: 'text-xs',
          cell: (k) => (
            <>
              {k.occupancy.length === 0
                ? '—'
                : k.occupancy.map((o) => (
                    <div key={o.block_size} title={o.basis}>
                      {`${Math.round(o.occupancy * 100)}% at ${o.block_size} threads (${o.blocks_per_sm} blocks/SM, ${o.limiter})`}
                    </div>
                  ))}
              {k.occupancy[0] ? (
                <div className="text-slate-500 dark:text-slate-400">{basisNote(k.occupancy[0].basis)}</div>
              ) : null}
            </>
          ),
        },
      ]}
    />
  );
}

/** PyTorch candidates: what one ModelNew call ran (torch.profiler) and its Triton kernels' compiled metadata. */
function TorchOps({ torch }: { torch: NonNullable<BuildFacts['torch']> }) {
  const kernels = torch.kind === 'cuda_kernels';
  return (
    <div className="space-y-3">
      <DataTable
        variant="plain"
        classes={PROFILE_TABLE}
        testId="torch-ops"
        caption={
          <>
            One ModelNew call under torch.profiler (torch {torch.torch_version}, {torch.device}):{' '}
            {kernels ? 'CUDA kernels by device time' : 'operators by self cpu time'}, {torch.ops.length} of{' '}
            {torch.ops_total}; {torch.call_ms.toFixed(3)} ms with the profiler on (not a timed figure)
          </>
        }
        captionClassName={CAPTION}
        rows={torch.ops}
        rowKey={(o) => o.name}
        columns={[
          {
            id: 'name',
            header: kernels ? 'Kernel' : 'Operator',
            className: 'font-mono text-xs break-all',
            cell: (o) => o.name,
          },
          { id: 'calls', header: 'Calls', className: 'tabular-nums', cell: (o) => o.calls },
          {
            id: 'self',
            header: kernels ? 'Device ms' : 'Self ms',
            className: 'tabular-nums',
            cell: (o) => o.self_ms.toFixed(3),
          },
          { id: 'total', header: 'Total ms', className: 'tabular-nums', cell: (o) => o.total_ms.toFixed(3) },
        ]}
      />
      {torch.triton.length ? (
        <table className="w-full text-left text-sm" data-testid="triton-kernels">
          <caption className="mb-1 text-left text-xs text-slate-500 dark:text-slate-400">
            Triton kernels of the candidate, from their compiled kernel objects
          </caption>
          <thead className="text-xs text-slate-500 uppercase dark:text-slate-400">
            <tr>
              <th className={th}>Kernel</th>
              <th className={th}>Warps</th>
              <th className={th}>Stages</th>
              <th className={th}>Shared</th>
              <th className={th}>Registers</th>
              <th className={th}>Spills</th>
            </tr>
          </thead>
          <tbody>
            {torch.triton.map((k) => (
              <tr
                key={`${k.name}:${k.num_warps}:${k.num_stages}:${k.shared_bytes}:${k.registers}:${k.best_config}`}
                className="border-t border-slate-100 dark:border-slate-800"
              >
                <td className={`${td} font-mono text-xs break-all`} title={k.best_config ?? undefined}>
                  {k.name}
                </td>
                {k.compiled ? (
                  <>
                    <td className={`${td} tabular-nums`}>{k.num_warps ?? '—'}</td>
                    <td className={`${td} tabular-nums`}>{k.num_stages ?? '—'}</td>
                    <td className={`${td} tabular-nums`}>{k.shared_bytes == null ? '—' : kib(k.shared_bytes)}</td>
                    <td className={`${td} tabular-nums`}>{k.registers ?? '—'}</td>
                    <td className={`${td} tabular-nums`}>{k.spills ?? '—'}</td>
                  </>
                ) : (
                  <td className={td} colSpan={5}>
                    not compiled in the profiled call
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="text-sm text-slate-600 dark:text-slate-400" data-testid="triton-reason">
          Triton: {torch.triton_reason ?? 'no kernels'}
        </p>
      )}
    </div>
  );
}

/** The basis of a kernel's occupancy rows, once (assumed sizes all share one reason). */
function basisNote(basis: string): string {
  return basis.replace(/^assumed \d+ threads: /, 'assumed sizes: ');
}

export function EvaluationProfile({
  state,
  bench,
  peaks,
}: {
  state: EvaluationState;
  bench: BenchmarkingResult | null | undefined;
  peaks: DevicePeaks | undefined;
}) {
  const facts = state.compile?.facts;
  const hot = facts?.hot_loop ?? null;
  const asmName = facts?.cuda ? facts.cuda.assembly_kind.toUpperCase() : 'assembly';
  const asmTitle = facts?.cuda ? asmName : 'Assembly';
  // A PyTorch module has no flop count: no point on the roofline (EvaluationReport says so beside its figures).
  const roofline = bench && peaks && !facts?.torch ? <Roofline result={bench} peaks={peaks} /> : null;
  return (
    <Card title="Profile">
      <div data-testid="profile" className="space-y-4">
        <div className={roofline ? 'grid gap-6 lg:grid-cols-2' : ''}>
          {roofline ? <div>{roofline}</div> : null}
          <div className="space-y-3 text-sm text-slate-700 dark:text-slate-300">
            {facts ? (
              <>
                {facts.cuda ? (
                  <CudaKernels cuda={facts.cuda} />
                ) : facts.torch ? (
                  <TorchOps torch={facts.torch} />
                ) : facts.symbols.length ? (
                  <Vectorization loops={facts.vectorization} />
                ) : null}
                <p data-testid="hot-loop" hidden={!facts.symbols.length && !facts.cuda}>
                  <span className="font-medium">Hot loop:</span>{' '}
                  {hot
                    ? facts.cuda
                      ? `${asmName} lines ${hot.start_line}–${hot.end_line}, in ${hot.function}`
                      : `assembly lines ${hot.start_line}–${hot.end_line}, in ${hot.function} (${hot.vector_bits ? `${hot.vector_bits}-bit vectors` : 'scalar'})`
                    : `no loop found in the ${asmName}`}
                </p>
                <p data-testid="counters">
                  <span className="font-medium">Hardware counters:</span>{' '}
                  {facts.counters.available && facts.counters.values
                    ? Object.entries(facts.counters.values)
                        .map(([k, v]) => `${k} ${v}`)
                        .join(', ')
                    : (facts.counters.reason ?? 'not available')}
                </p>
                {(facts.notes ?? []).map((n) => (
                  <p key={n} className="text-xs text-slate-500 dark:text-slate-400">
                    {n}
                  </p>
                ))}
              </>
            ) : (
              <p className="text-slate-600 dark:text-slate-400">
                {state.redacted
                  ? 'The assembly and the vectorization report are derived from the source: visible to the author only.'
                  : 'No build facts: only compiled C, C++ and CUDA evaluations and accepted PyTorch ones have them.'}
              </p>
            )}
          </div>
        </div>
        {facts?.assembly ? (
          <div>
            <h3 className="mb-1 text-sm font-medium text-slate-900 dark:text-white">
              {asmTitle} of {facts.symbols.join(', ')}
              {facts.assembly_truncated ? ' (cut at 64 KiB)' : ''}
            </h3>
            <CodeView
              source={facts.assembly}
              label={asmTitle}
              language="asm"
              marked={hot ? { from: hot.start_line, to: hot.end_line } : undefined}
            />
          </div>
        ) : null}
      </div>
    </Card>
  );
}
