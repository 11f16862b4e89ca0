// The prompt for pytorch problems, in the field's (KernelBench's) shape: the reference architecture in, a ModelNew file out.
import type { AgentContext } from '../types.js';
import { buildFactsText } from './prompt-facts.js';

const SOURCE_CHARS = 24_000;
const clip = (s: string, n: number) =>
  s.length > n ? `${s.slice(0, n)}\n... (${s.length - n} more characters cut)` : s;
const num = (x: number, digits = 3) => (Number.isFinite(x) ? String(Number(x.toPrecision(digits))) : String(x));

export function torchSystemPrompt(ctx: AgentContext): string {
  const cuda = ctx.device.kind === 'cuda';
  return [
    'You are an expert performance engineer. You write custom operators that replace the PyTorch operators in a given architecture to make it faster, for Kernelforge.',
    'You are given a PyTorch architecture named `Model`. Write a complete Python file that defines `class ModelNew(nn.Module)`: a drop-in replacement for it.',
    'Rules:',
    '- `ModelNew.__init__` takes exactly the arguments `Model.__init__` takes, and `ModelNew.forward` takes exactly the arguments `Model.forward` takes and returns outputs of the same number, shapes and dtypes.',
    "- Keep the parameters and buffers under the names and shapes the reference gives them (e.g. `self.linear.weight`): the evaluator copies the reference's initial parameters into ModelNew by name, and is seeded identically.",
    cuda
      ? '- You may use PyTorch operators, custom CUDA kernels compiled with `torch.utils.cpp_extension.load_inline` (cuda_sources, with a C++ declaration in cpp_sources), and Triton when it is installed. Tensors are on the GPU.'
      : '- You may use PyTorch operators and custom C++ compiled with `torch.utils.cpp_extension.load_inline` (cpp_sources; `extra_cflags=["-O3", "-march=native", "-fopenmp"]`, `extra_ldflags=["-fopenmp"]` for OpenMP). Tensors are on the cpu; there is no GPU and no Triton.',
    '- forward is called under torch.no_grad() on inputs you must not modify; return fresh outputs. No threads or work left running after forward returns, no caching of outputs between calls, no I/O, no network, no reading files.',
    `- Results must match the reference within atol ${ctx.problem.tolerance.atol}, rtol ${ctx.problem.tolerance.rtol} on every size (the test sizes are smaller than the benchmark's).`,
    '- Answer with exactly one fenced code block (```python) holding the whole file (imports, any load_inline sources, ModelNew; no tests, no get_inputs needed), then a short explanation (a few sentences) of what you changed and why.',
  ].join('\n');
}

export function torchUserPrompt(ctx: AgentContext, feedback: (a: AgentContext['history'][number]) => string): string {
  const p = ctx.problem;
  const d = ctx.device;
  const parts: string[] = [];
  parts.push(`# Problem: ${p.name}${p.title && p.title !== p.name ? ` (${p.title})` : ''}, level ${p.level}`);
  if (p.description.trim()) parts.push(p.description.trim());
  parts.push(
    `You are given the following architecture:\n\`\`\`python\n${clip(p.reference_source ?? '', SOURCE_CHARS)}\n\`\`\``,
  );
  const sizes = p.torch?.sizes[d.kind] ?? p.torch?.sizes.cpu;
  if (sizes) {
    const scaled = Object.entries(sizes.constants).filter(([k, v]) => p.torch?.constants[k] !== v);
    const shapes = (sizes.benchmark[0]?.inputs ?? [])
      .map((v) => (v.type === 'tensor' ? `${v.dtype ?? 'tensor'}[${(v.shape ?? []).join(', ')}]` : (v.repr ?? v.type)))
      .join(', ');
    parts.push(
      `Sizes on this device: ${
        scaled.length
          ? `the benchmark runs with ${scaled.map(([k, v]) => `${k} = ${v}`).join(', ')} (scaled down from the file's ${scaled
              .map(([k]) => `${k} = ${p.torch?.constants[k]}`)
              .join(', ')} to fit the device)`
          : "the file's own constants"
      }; forward's inputs: ${shapes || 'see get_inputs()'}. Correctness is checked at smaller sizes too.`,
    );
  }
  parts.push(
    `# Device: ${d.name} (${d.id}, ${d.kind}${d.cores ? `, ${d.cores} cores` : ''})` +
      (d.cpu ? `\nISA: ${d.cpu.vector_isa} (${d.cpu.isa.join(' ') || 'baseline'})` : '') +
      (d.toolchains
        ? `\nToolchains: ${Object.entries(d.toolchains)
            .map(([k, v]) => `${k} ${v}`)
            .join(', ')}`
        : ''),
  );
  if (ctx.best?.source) {
    const b = ctx.best.evaluation_state?.benchmarking_result;
    const figures = b ? ` ran in ${num(b.optimized_time)} ms, ${num(b.speedup)}x eager PyTorch` : '';
    parts.push(
      `# Best attempt so far: #${ctx.best.attempt_number}${figures}\n\`\`\`python\n${clip(ctx.best.source, SOURCE_CHARS)}\n\`\`\``,
    );
  }
  const recent = ctx.history.slice(-3);
  if (recent.length)
    parts.push(`# The last ${recent.length} attempt(s), oldest first\n${recent.map(feedback).join('\n\n')}`);
  const last = ctx.history[ctx.history.length - 1];
  if (last?.source && last.attempt_number !== ctx.best?.attempt_number) {
    parts.push(
      `# Source of attempt #${last.attempt_number} (the feedback above refers to it)\n\`\`\`python\n${clip(last.source, SOURCE_CHARS)}\n\`\`\``,
    );
  }
  // Its facts (issue 37): what one ModelNew call launched, with its Triton kernels' metadata.
  const facts = last ? buildFactsText(last.attempt_number, last.evaluation_state?.compile?.facts) : '';
  if (facts) parts.push(facts);
  if (ctx.instructions.length) {
    parts.push(
      '# Instructions from the user (all still active, oldest first; follow them all)\n' +
        ctx.instructions.map((t) => `- ${t}${t === ctx.currentInstruction ? '  <- the current one' : ''}`).join('\n'),
    );
  }
  parts.push(
    `Optimize the architecture named Model with custom operators! Name your optimized output architecture ModelNew. Write attempt #${ctx.attemptNumber}: faster than the best so far, and correct. Output the whole new file in one code block; real code, not pseudocode.`,
  );
  return parts.join('\n\n');
}
