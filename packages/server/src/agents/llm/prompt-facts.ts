// The previous attempt's build facts in a prompt, concisely: the loops gcc did not vectorize and why (cpu), or each
// kernel's registers, spills, shared memory and occupancy (cuda), what one ModelNew call ran (torch), and the hot loop.
import type { BuildFacts } from '@kernelforge/sdk';

const HOT_LOOP_LINES = 40;
const MISSED = 8;

/** A few lines on what the compiler made of an attempt (docs/evaluation.md "Build facts"); empty without facts. */
export function buildFactsText(attemptNumber: number, facts: BuildFacts | undefined): string {
  if (!facts) return '';
  const lines = [`# Build facts of attempt #${attemptNumber} (what the compiler made of it)`];
  const loops = facts.vectorization;
  if (loops) {
    const done = loops.filter((l) => l.vectorized);
    const missed = loops.filter((l) => !l.vectorized);
    lines.push(
      done.length
        ? `Vectorized loops: ${done.map((l) => `line ${l.line} (${l.widths.map((w) => `${w * 8}-bit`).join(', ')})`).join('; ')}`
        : 'Vectorized loops: none',
    );
    if (missed.length)
      lines.push(
        `Loops gcc did not vectorize:\n${missed
          .slice(0, MISSED)
          .map((l) => `- line ${l.line}: ${l.reasons.slice(0, 2).join('; ') || 'no reason given'}`)
          .join('\n')}${missed.length > MISSED ? `\n- ... and ${missed.length - MISSED} more` : ''}`,
      );
  }
  const cuda = facts.cuda;
  if (cuda) {
    lines.push(`Kernels as ptxas compiled them for ${cuda.arch}:`);
    for (const k of cuda.kernels.slice(0, MISSED)) {
      const occ = k.occupancy
        .map((o) => `${Math.round(o.occupancy * 100)}% at ${o.block_size} threads (limited by ${o.limiter})`)
        .join(', ');
      const spills = k.spill_store_bytes || k.spill_load_bytes;
      lines.push(
        `- ${k.name.slice(0, 200)}: ${k.registers} registers, ${spills ? `SPILLS ${k.spill_store_bytes} B stored / ${k.spill_load_bytes} B loaded` : 'no spills'}, ${k.stack_bytes} B stack, ${k.shared_bytes} B shared; theoretical occupancy ${occ || 'unknown'}${k.occupancy[0]?.basis.startsWith('assumed') ? ' (block size assumed: not a constant of the source)' : ''}`,
      );
    }
    if (cuda.kernels.length > MISSED) lines.push(`- ... and ${cuda.kernels.length - MISSED} more kernels`);
  }
  const torch = facts.torch;
  if (torch) {
    const what = torch.kind === 'cuda_kernels' ? 'CUDA kernels' : 'operators (self cpu time)';
    lines.push(
      `One ModelNew call under torch.profiler (torch ${torch.torch_version}, ${torch.device}): ${torch.ops_total} ${what}, ${torch.call_ms.toFixed(3)} ms with the profiler on:`,
    );
    for (const o of torch.ops.slice(0, MISSED))
      lines.push(`- ${o.name.slice(0, 200)}: ${o.calls} call${o.calls === 1 ? '' : 's'}, ${o.self_ms.toFixed(3)} ms`);
    if (torch.ops.length > MISSED) lines.push(`- ... and ${torch.ops_total - MISSED} more`);
    const compiled = torch.triton.filter((k) => k.compiled);
    if (compiled.length)
      for (const k of compiled.slice(0, MISSED))
        lines.push(
          `- Triton kernel ${k.name}: num_warps ${k.num_warps ?? '?'}, num_stages ${k.num_stages ?? '?'}, ${k.shared_bytes ?? '?'} B shared, ${k.registers ?? '?'} registers, ${k.spills ? `SPILLS ${k.spills}` : `${k.spills ?? '?'} spills`}${k.best_config ? ` (autotuned: ${k.best_config})` : ''}`,
        );
    else lines.push(`Triton kernels: ${torch.triton_reason ?? 'none compiled in the profiled call'}`);
  }
  for (const n of facts.notes ?? []) if (/^no torch facts/.test(n)) lines.push(n);
  const hot = facts.hot_loop;
  if (hot) {
    const all = facts.assembly.split('\n').slice(hot.start_line - 1, hot.end_line);
    const shown = all.slice(0, HOT_LOOP_LINES).map((l) => l.replace(/^\s+[0-9a-f]+:\t/, '  '));
    const kind = cuda ? `${cuda.assembly_kind.toUpperCase()}, ` : '';
    const width = cuda ? '' : `, ${hot.vector_bits ? `${hot.vector_bits}-bit vectors` : 'scalar'}`;
    lines.push(
      `Hot loop (${kind}innermost, in ${hot.function}${width}):\n\`\`\`asm\n${shown.join('\n')}${all.length > HOT_LOOP_LINES ? `\n  ... (${all.length - HOT_LOOP_LINES} more instructions)` : ''}\n\`\`\``,
    );
  }
  lines.push(
    facts.counters.available && facts.counters.values
      ? `Hardware counters: ${Object.entries(facts.counters.values)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')}`
      : `Hardware counters: ${facts.counters.reason ?? 'not available'}`,
  );
  return lines.join('\n');
}
