// `--build-facts`: an evaluation's build facts (assembly with its hot loop, vectorization, counters) beside its roofline.
import { cacheNote, type EvaluationState } from '@kernelforge/sdk';
import type { Output } from './output.js';

/** The facts as `--build-facts --json` prints them: null where the evaluation has none (not C/C++, not compiled, or
    another user's result). */
export function buildFactsJson(state: EvaluationState | null | undefined) {
  const b = state?.benchmarking_result;
  return {
    facts: state?.compile?.facts ?? null,
    roofline: b ? { gbps: b.gbps, gflops: b.gflops, fraction_of_peak: b.fraction_of_peak } : null,
    cache: b ? b.cases.map((c) => ({ case: c.name, ...(c.cache ?? {}), note: cacheNote(c) ?? null })) : null,
  };
}

/** Prints the build facts on stdout; says on stderr why there is none. */
export function printBuildFacts(output: Output, what: string, state: EvaluationState | null | undefined): void {
  const facts = state?.compile?.facts;
  if (!facts) {
    output.info(
      state?.redacted
        ? `${what} is another user's: its build facts are visible to its author only.`
        : `${what} has no build facts (only compiled C and C++ evaluations on the cpu have them).`,
    );
    return;
  }
  const { style } = output;
  const compile = state.compile;
  const b = state.benchmarking_result;
  const fields: [string, string][] = [['Compiler', `${compile?.compiler ?? ''} ${compile?.flags.join(' ') ?? ''}`]];
  if (b)
    fields.push([
      'Roofline',
      `${b.gbps.toFixed(1)} GB/s, ${b.gflops.toFixed(2)} GFLOP/s, ${(b.fraction_of_peak * 100).toFixed(1)}% of peak`,
    ]);
  for (const c of b?.cases ?? []) {
    const note = cacheNote(c);
    if (note) fields.push(['Cache', `${c.name}: ${note}`]);
  }
  const hot = facts.hot_loop;
  fields.push([
    'Hot loop',
    hot
      ? `assembly lines ${hot.start_line}-${hot.end_line}, in ${hot.function} (${hot.vector_bits ? `${hot.vector_bits}-bit vectors` : 'scalar'})`
      : 'none found',
  ]);
  fields.push([
    'Counters',
    facts.counters.available && facts.counters.values
      ? Object.entries(facts.counters.values)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')
      : (facts.counters.reason ?? 'not available'),
  ]);
  for (const note of facts.notes ?? []) fields.push(['Note', note]);
  output.fields(fields);
  output.line();
  if (facts.vectorization === null) output.line(style.dim('No vectorization report (the compiler is not gcc).'));
  else if (facts.vectorization.length === 0)
    output.line(style.dim('Vectorization: the source has no loops gcc reports on.'));
  else
    output.table(facts.vectorization, [
      { header: 'LINE', value: (l) => `${l.line}:${l.column}`, align: 'right' },
      { header: 'VECTORIZED', value: (l) => (l.vectorized ? 'yes' : 'no') },
      { header: 'WIDTH', value: (l) => l.widths.map((w) => `${w * 8}-bit`).join(', ') || '-' },
      { header: 'WHY NOT / NOTES', value: (l) => l.reasons.join('; ') || '-' },
    ]);
  output.line();
  output.line(
    style.bold(`Assembly of ${facts.symbols.join(', ')}${facts.assembly_truncated ? ' (cut at 64 KiB)' : ''}`),
  );
  facts.assembly.split('\n').forEach((line, i) => {
    const inHot = hot && i + 1 >= hot.start_line && i + 1 <= hot.end_line;
    output.line(inHot ? style.yellow(`> ${line}`) : `  ${line}`);
  });
}
