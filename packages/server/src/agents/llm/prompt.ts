// DESIGN 7's prompt: the problem, the device, the best attempt, the last few attempts' feedback, every instruction.
import { cacheNote, type EvaluationState } from '@kernelforge/sdk';
import type { AgentAttemptView, AgentContext } from '../types.js';
import { buildFactsText } from './prompt-facts.js';
import { torchSystemPrompt, torchUserPrompt } from './prompt-torch.js';

const RECENT = 3;
const LOG_CHARS = 2000;
const SOURCE_CHARS = 24_000;

const fence = (lang: string) => (lang === 'cuda' ? 'cuda' : lang === 'cpp' ? 'cpp' : 'c');
const clip = (s: string, n: number) =>
  s.length > n ? `${s.slice(0, n)}\n... (${s.length - n} more characters cut)` : s;
// Three significant digits without trailing zeros: 90 GB/s, 0.244 ms, 1.53e+3 stays readable as 1530.
const num = (x: number, digits = 3) => (Number.isFinite(x) ? String(Number(x.toPrecision(digits))) : String(x));

const isTorch = (ctx: AgentContext) => ctx.problem.kind === 'pytorch' || ctx.language === 'pytorch';

export function systemPrompt(ctx: AgentContext): string {
  if (isTorch(ctx)) return torchSystemPrompt(ctx);
  const lang = ctx.language === 'cuda' ? 'CUDA C++' : ctx.language === 'cpp' ? 'C++' : 'C';
  return [
    'You are an expert performance engineer writing fast, correct kernels for Kernelforge.',
    `Write one ${lang} source file that defines the entry point with exactly this prototype${ctx.language === 'c' ? '' : ' (declared extern "C")'}:`,
    `    ${ctx.problem.prototype}`,
    'Rules:',
    '- One self-contained source file; only standard headers' +
      (ctx.language === 'cuda' ? ' and the CUDA runtime.' : ' (OpenMP and compiler intrinsics allowed).'),
    ctx.language === 'cuda'
      ? '- Compiled with nvcc -O3 for the device; the pointers are device pointers; the entry is called from the host and may launch kernels on any stream.'
      : '- Compiled with fixed flags `-O3 -march=native -fopenmp`; express other flags in the source (#pragma GCC optimize, #pragma omp ...).',
    '- No I/O (no printf, files or sockets), no main(), no global state that changes the result between calls, and no threads left running when the entry returns.',
    '- Results must match the reference within the tolerance on every size, including sizes that are not multiples of 16.',
    `- Answer with exactly one fenced code block (\`\`\`${fence(ctx.language)}) holding the whole file, then a short explanation (a few sentences) of what you changed and why.`,
  ].join('\n');
}

export function userPrompt(ctx: AgentContext): string {
  if (isTorch(ctx)) return torchUserPrompt(ctx, feedback);
  const p = ctx.problem;
  const d = ctx.device;
  const parts: string[] = [];
  parts.push(`# Problem: ${p.name}${p.title && p.title !== p.name ? ` (${p.title})` : ''}`, p.description.trim());
  parts.push(`Prototype: \`${p.prototype}\``);
  parts.push(
    'Signature:\n' +
      p.signature
        .map((a) => `- ${a.name}: ${a.type}, ${a.role}${a.shape ? `, shape [${a.shape.join(', ')}]` : ''}`)
        .join('\n'),
  );
  const sizes = (cs: { name: string; sizes: Record<string, number> }[]) =>
    cs
      .map(
        (c) =>
          `${c.name} (${Object.entries(c.sizes)
            .map(([k, v]) => `${k}=${v}`)
            .join(', ')})`,
      )
      .join('; ');
  parts.push(`Test sizes: ${sizes(p.cases.test)}\nBenchmark sizes (timed): ${sizes(p.cases.benchmark)}`);
  parts.push(
    `Tolerance: atol ${p.tolerance.atol}, rtol ${p.tolerance.rtol}. Cost: flops = ${p.cost.flops}, bytes = ${p.cost.bytes}.`,
  );
  if (p.reference_source)
    parts.push(
      `Reference (authoritative for correctness):\n\`\`\`c\n${clip(p.reference_source, SOURCE_CHARS)}\n\`\`\``,
    );
  parts.push(
    `# Device: ${d.name} (${d.id}, ${d.kind}${d.cores ? `, ${d.cores} cores` : ''}${d.memory_mb ? `, ${Math.round(d.memory_mb)} MB` : ''})\n` +
      `Peaks (${d.peaks.source}): memory bandwidth ${num(d.peaks.bandwidth_gbps)} GB/s, fp32 ${num(d.peaks.fp32_gflops)} GFLOP/s.` +
      (d.cpu
        ? `\nISA: ${d.cpu.vector_isa} (${d.cpu.isa.join(' ') || 'baseline'}), ${d.cpu.vector_registers} vector registers of ${d.cpu.vector_bits} bits` +
          (d.cpu.caches
            ? `; caches per core: L1d ${Math.round(d.cpu.caches.l1d_bytes / 1024)} KiB, L2 ${Math.round(d.cpu.caches.l2_bytes / 1024)} KiB, L3 ${Math.round(d.cpu.caches.l3_bytes / 1024)} KiB.`
            : '.')
        : ''),
  );
  if (ctx.best?.source) {
    const b = ctx.best.evaluation_state?.benchmarking_result;
    const figures = b
      ? ` ran in ${num(b.optimized_time)} ms, ${num(b.speedup)}x the reference, ${num(b.fraction_of_peak * 100, 2)}% of peak`
      : '';
    parts.push(
      `# Best attempt so far: #${ctx.best.attempt_number}${figures}\n\`\`\`${fence(ctx.language)}\n${clip(ctx.best.source, SOURCE_CHARS)}\n\`\`\``,
    );
  }
  const recent = ctx.history.slice(-RECENT);
  if (recent.length)
    parts.push(`# The last ${recent.length} attempt(s), oldest first\n${recent.map(feedback).join('\n\n')}`);
  // The newest attempt's own code, unless it is the best shown above: a compile error or a wrong answer points into it.
  const last = ctx.history[ctx.history.length - 1];
  if (last?.source && last.attempt_number !== ctx.best?.attempt_number) {
    parts.push(
      `# Source of attempt #${last.attempt_number} (the feedback above refers to it)\n\`\`\`${fence(ctx.language)}\n${clip(last.source, SOURCE_CHARS)}\n\`\`\``,
    );
  }
  const facts = last ? buildFactsText(last.attempt_number, last.evaluation_state?.compile?.facts) : '';
  if (facts) parts.push(facts);
  if (ctx.instructions.length) {
    parts.push(
      '# Instructions from the user (all still active, oldest first; follow them all)\n' +
        ctx.instructions.map((t) => `- ${t}${t === ctx.currentInstruction ? '  <- the current one' : ''}`).join('\n'),
    );
  }
  parts.push(`Write attempt #${ctx.attemptNumber}: faster than the best so far, and correct.`);
  return parts.join('\n\n');
}

/** One attempt's feedback: verdict, compile log excerpt, failing cases, timings and roofline figures. */
export function feedback(a: AgentAttemptView): string {
  const s: EvaluationState | null = a.evaluation_state;
  const lines = [`## Attempt #${a.attempt_number}: ${s ? `${s.verdict} - ${s.message}` : a.status}`];
  if (a.explanation) lines.push(`Its explanation: ${clip(a.explanation.trim(), 400)}`);
  if (!s) return lines.join('\n');
  if (s.compile && (!s.compile.ok || s.verdict.startsWith('compile'))) {
    lines.push(
      `Compile log (${s.compile.compiler} ${s.compile.flags.join(' ')}):\n\`\`\`\n${clip(s.compile.log.trim(), LOG_CHARS)}\n\`\`\``,
    );
  }
  const failed = s.correctness?.cases.filter((c) => !c.passed) ?? [];
  if (failed.length) {
    lines.push(
      'Correctness failures:\n' +
        failed
          .slice(0, 6)
          .map(
            (c) =>
              `- ${c.name} ${JSON.stringify(c.sizes)} seed ${c.seed} ${c.distribution}: ${c.message ?? ''} max abs err ${c.max_abs_error ?? 'n/a'}, max rel err ${c.max_rel_error ?? 'n/a'}`,
          )
          .join('\n') +
        (failed.length > 6 ? `\n- ... and ${failed.length - 6} more` : ''),
    );
  }
  if (s.stderr?.trim() && s.verdict !== 'accepted')
    lines.push(`stderr:\n\`\`\`\n${clip(s.stderr.trim(), 800)}\n\`\`\``);
  const b = s.benchmarking_result;
  if (b) {
    lines.push(
      `Total: ${num(b.optimized_time)} ms vs reference ${num(b.baseline_time)} ms (speedup ${num(b.speedup)}x)` +
        (b.compiled_baseline_time
          ? `; the reference compiled (${b.compiled_baseline ?? 'compiled'}) ${num(b.compiled_baseline_time)} ms (speedup ${num(b.speedup_over_compiled ?? 0)}x)`
          : ''),
    );
    if (s.sizes_used)
      lines.push(
        `Sizes used: ${Object.entries(s.sizes_used)
          .map(([k, v]) => `${k}=${v}`)
          .join(', ')}`,
      );
    for (const c of b.cases) {
      // pytorch problems have no cost formulas, so no roofline figures: only the times.
      if (c.gbps === 0 && c.gflops === 0) {
        lines.push(
          `- ${c.name} ${JSON.stringify(c.sizes)}: median ${num(c.optimized.median_ms)} ms (reference ${num(c.baseline.median_ms)} ms)`,
        );
        continue;
      }
      lines.push(
        `- ${c.name} ${JSON.stringify(c.sizes)}: median ${num(c.optimized.median_ms)} ms (reference ${num(c.baseline.median_ms)} ms), ` +
          `${num(c.gbps)} GB/s, ${num(c.gflops)} GFLOP/s, ${num(c.fraction_of_peak * 100, 2)}% of peak ` +
          `(bandwidth ${num(c.fraction_of_peak_bandwidth * 100, 2)}%, flops ${num(c.fraction_of_peak_flops * 100, 2)}%)` +
          (cacheNote(c) ? `; ${cacheNote(c)}` : ''),
      );
    }
  }
  return lines.join('\n');
}
