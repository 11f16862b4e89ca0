// `--build-facts`: an evaluation's build facts (assembly with its hot loop, vectorization or cuda kernels' resources and
// occupancy, counters) beside its roofline.
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
        : `${what} has no build facts (only compiled C, C++ and CUDA evaluations and accepted PyTorch ones have them).`,
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
  const cuda = facts.cuda;
  const asmName = cuda ? cuda.assembly_kind.toUpperCase() : 'assembly';
  fields.push([
    'Hot loop',
    hot
      ? cuda
        ? `${asmName} lines ${hot.start_line}-${hot.end_line}, in ${hot.function}`
        : `assembly lines ${hot.start_line}-${hot.end_line}, in ${hot.function} (${hot.vector_bits ? `${hot.vector_bits}-bit vectors` : 'scalar'})`
      : 'none found',
  ]);
  if (cuda) fields.push(['Occupancy', cuda.limits_source]);
  fields.push([
    'Counters',
    facts.counters.available && facts.counters.values
      ? Object.entries(facts.counters.values)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')
      : (facts.counters.reason ?? 'not available'),
  ]);
  for (const note of facts.notes ?? []) fields.push(['Note', note]);
  const torch = facts.torch;
  if (torch)
    fields.splice(
      1,
      0,
      [
        'Profiled',
        `one ModelNew call under torch.profiler (torch ${torch.torch_version}, ${torch.device}): ${torch.call_ms.toFixed(3)} ms with the profiler on, not a timed figure`,
      ],
      ['Triton', torch.triton_reason ?? `${torch.triton.length} kernel${torch.triton.length === 1 ? '' : 's'}`],
    );
  output.fields(fields);
  output.line();
  if (torch) {
    output.line(
      style.bold(
        `${torch.kind === 'cuda_kernels' ? 'CUDA kernels' : 'Operators'} of one call (${torch.ops.length} of ${torch.ops_total})`,
      ),
    );
    output.table(torch.ops, [
      { header: torch.kind === 'cuda_kernels' ? 'KERNEL' : 'OPERATOR', value: (o) => o.name },
      { header: 'CALLS', value: (o) => String(o.calls), align: 'right' },
      {
        header: torch.kind === 'cuda_kernels' ? 'DEVICE MS' : 'SELF MS',
        value: (o) => o.self_ms.toFixed(3),
        align: 'right',
      },
      { header: 'TOTAL MS', value: (o) => o.total_ms.toFixed(3), align: 'right' },
    ]);
    if (torch.triton.length) {
      output.line();
      output.table(torch.triton, [
        { header: 'TRITON KERNEL', value: (k) => k.name },
        { header: 'WARPS', value: (k) => (k.compiled ? String(k.num_warps ?? '-') : 'not compiled'), align: 'right' },
        { header: 'STAGES', value: (k) => String(k.num_stages ?? '-'), align: 'right' },
        { header: 'SHARED', value: (k) => (k.shared_bytes == null ? '-' : `${k.shared_bytes} B`), align: 'right' },
        { header: 'REGS', value: (k) => String(k.registers ?? '-'), align: 'right' },
        { header: 'SPILLS', value: (k) => String(k.spills ?? '-'), align: 'right' },
        { header: 'AUTOTUNED', value: (k) => k.best_config ?? '-' },
      ]);
    }
    return;
  }
  if (cuda) {
    if (cuda.kernels.length === 0) output.line(style.dim('ptxas reported no kernels.'));
    else
      output.table(cuda.kernels, [
        { header: 'KERNEL', value: (k) => k.name },
        { header: 'REGS', value: (k) => String(k.registers), align: 'right' },
        {
          header: 'SPILLS ST/LD',
          value: (k) =>
            k.spill_store_bytes || k.spill_load_bytes ? `${k.spill_store_bytes}/${k.spill_load_bytes} B` : 'none',
        },
        { header: 'STACK', value: (k) => `${k.stack_bytes} B`, align: 'right' },
        { header: 'SHARED', value: (k) => `${k.shared_bytes} B`, align: 'right' },
        {
          header: `OCCUPANCY (${cuda.arch})`,
          value: (k) =>
            k.occupancy.map((o) => `${Math.round(o.occupancy * 100)}%@${o.block_size} (${o.limiter})`).join(', ') ||
            '-',
        },
      ]);
    const bases = new Set(
      cuda.kernels.flatMap((k) => k.occupancy.map((o) => o.basis.replace(/^assumed \d+ threads: /, 'assumed sizes: '))),
    );
    for (const b of bases) output.line(style.dim(`Block size: ${b}`));
  } else if (facts.vectorization === null) output.line(style.dim('No vectorization report (the compiler is not gcc).'));
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
    style.bold(
      `${cuda ? asmName : 'Assembly'} of ${facts.symbols.join(', ')}${facts.assembly_truncated ? ' (cut at 64 KiB)' : ''}`,
    ),
  );
  facts.assembly.split('\n').forEach((line, i) => {
    const inHot = hot && i + 1 >= hot.start_line && i + 1 <= hot.end_line;
    output.line(inHot ? style.yellow(`> ${line}`) : `  ${line}`);
  });
}
