// What a pytorch evaluation adds to its verdict: the sizes it actually ran at on this device, how the candidate
// compares with the compiled reference (or why there was none), and the toolchain versions that evaluated it.
import type { EvaluationState } from '@kernelforge/sdk';
import { formatMs } from '../lib/format';
import { constantsLabel } from '../lib/problemKind';
import { Speedup } from './Speedup';

const term = 'text-xs font-medium text-slate-500 dark:text-slate-400';
const value = 'min-w-0 text-slate-800 dark:text-slate-200';

export function TorchEvaluationFacts({ state }: { state: EvaluationState }) {
  const bench = state.benchmarking_result;
  const sizes = state.sizes_used;
  const toolchains = Object.entries(state.environment?.toolchains ?? {});
  const compiledTime = bench?.compiled_baseline_time;
  const compiled = typeof compiledTime === 'number' && Number.isFinite(compiledTime);
  const note = bench?.compiled_note;
  if (!sizes && !compiled && !note && toolchains.length === 0) return null;
  return (
    <dl
      data-testid="torch-facts"
      className="mt-4 grid grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_minmax(0,1fr)] sm:gap-y-2"
    >
      {sizes ? (
        <>
          <dt className={term}>Sizes used</dt>
          <dd className={`${value} font-mono text-xs break-words`} data-testid="sizes-used">
            {constantsLabel(sizes) || 'as written'}
          </dd>
        </>
      ) : null}
      {compiled || note ? (
        <>
          <dt className={term}>Compiled baseline</dt>
          <dd className={value} data-testid="compiled-baseline">
            {compiled ? (
              <>
                {bench?.compiled_baseline ?? 'the compiled reference'}: {formatMs(compiledTime)} · speedup over it{' '}
                <span className="font-semibold tabular-nums">
                  <Speedup value={bench?.speedup_over_compiled} />
                </span>
              </>
            ) : (
              'not compiled'
            )}
            {note ? <span className="block text-xs text-slate-500 dark:text-slate-400">{note}</span> : null}
          </dd>
        </>
      ) : null}
      {toolchains.length ? (
        <>
          <dt className={term}>Toolchains</dt>
          <dd className={`${value} text-xs break-words`} data-testid="toolchains">
            {toolchains.map(([name, version]) => `${name} ${version}`).join(' · ')}
          </dd>
        </>
      ) : null}
    </dl>
  );
}
