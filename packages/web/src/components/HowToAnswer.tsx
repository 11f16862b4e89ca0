// "How to answer" for a pytorch problem: what file to write, which PyTorch runs it on the chosen device, the sizes
// the benchmark really uses there, what the harness allows, and a starting file for each way of writing a kernel the
// device offers (PyTorch operators; C++ or CUDA through load_inline; Triton where its runner has it).
import type { Device, Problem } from '@kernelforge/sdk';
import { sizesKind } from '../lib/problemKind';
import { TORCH_TEMPLATE_NAMES, type TorchTemplateKind, torchTemplate } from '../lib/torchTemplates';
import { Button } from './Button';

const code = 'rounded bg-slate-100 px-1 font-mono text-xs dark:bg-slate-800';

/** The ways of writing an answer the device offers. */
export function templateKinds(device: Device | undefined): TorchTemplateKind[] {
  const kinds: TorchTemplateKind[] = ['pytorch', 'cpp'];
  if (device?.kind === 'cuda') kinds.push('cuda');
  if (device?.toolchains?.triton) kinds.push('triton');
  return kinds;
}

/** "dim = 65536 in the file, 8192 here" for each constant the device's benchmark changes. */
export function scaledConstants(problem: Problem, kind: string | undefined): string[] {
  const file = problem.torch?.constants ?? {};
  const here = kind ? problem.torch?.sizes[kind]?.constants : undefined;
  if (!here) return [];
  return Object.entries(here)
    .filter(([name, value]) => file[name] !== undefined && file[name] !== value)
    .map(([name, value]) => `${name} = ${file[name]} in the file, ${value} here`);
}

export function HowToAnswer({
  problem,
  device,
  onUseTemplate,
}: {
  problem: Problem;
  device: Device | undefined;
  /** Puts a starting file in the editor. */
  onUseTemplate: (source: string, kind: TorchTemplateKind) => void;
}) {
  const tools = device?.toolchains ?? {};
  const kind = sizesKind(problem, device);
  const scaled = scaledConstants(problem, kind);
  return (
    <section
      aria-labelledby="how-to-answer"
      data-testid="how-to-answer"
      className="space-y-2 rounded-md border border-indigo-200 bg-indigo-50/60 p-3 text-sm text-slate-800 dark:border-indigo-900 dark:bg-indigo-950/30 dark:text-slate-200"
    >
      <h2 id="how-to-answer" className="font-semibold text-slate-900 dark:text-white">
        How to answer
      </h2>
      <p>
        Write one Python file defining <code className={code}>class ModelNew(nn.Module)</code> with the same{' '}
        <code className={code}>__init__</code> and <code className={code}>forward</code> arguments as{' '}
        <code className={code}>Model</code>. The harness builds it with the problem's init inputs, copies the
        reference's parameters into it by name (keep their names), calls <code className={code}>forward</code> on fresh
        inputs and compares every output within atol {problem.tolerance.atol}, rtol {problem.tolerance.rtol}, then times
        it against eager PyTorch.
      </p>
      <p data-testid="torch-version">
        {tools.torch ? (
          <>
            On <span className="font-mono text-xs break-all">{device?.id}</span>: PyTorch {tools.torch}
            {tools.python ? `, Python ${tools.python}` : ''}
            {tools.cuda ? `, CUDA ${tools.cuda}` : ''}
            {tools.triton ? `, Triton ${tools.triton}` : ', no Triton'}.
          </>
        ) : device ? (
          <>
            <span className="font-mono text-xs break-all">{device.id}</span>'s runner has no PyTorch, so it cannot
            evaluate this problem: pick a device that has one.
          </>
        ) : (
          'Pick a device to see which PyTorch runs your answer.'
        )}
      </p>
      {scaled.length > 0 ? (
        <p data-testid="torch-scaled">
          The benchmark on {kind} devices runs smaller sizes than the file writes, to fit the device's memory budget:{' '}
          {scaled.join('; ')}. Read sizes from the inputs, not from the constants.
        </p>
      ) : null}
      <ul className="list-disc space-y-1 pl-5">
        <li>
          Allowed: any PyTorch operator; C++ built with{' '}
          <code className={code}>torch.utils.cpp_extension.load_inline</code> (-O3 -march=native -fopenmp on the cpu)
          {device?.kind === 'cuda' ? '; CUDA through load_inline' : ''}
          {tools.triton ? '; Triton kernels' : ''}; your own thread pool kept between calls.
        </li>
        <li>
          Not allowed: work after <code className={code}>forward</code> returns (a thread left running or started after
          it is flagged, then rejected), changing the inputs, outputs that change after the reply, network or files
          beyond your own. Each call may take the larger of 1 s and 50x the reference's time.
        </li>
        <li>
          The reference itself, renamed, is accepted but within noise of 1.00x: it is where you start, not an answer.
        </li>
      </ul>
      <div>
        <p className="mb-1 font-medium">Start from a template (replaces the editor's file):</p>
        <div className="flex flex-wrap gap-2">
          {templateKinds(device).map((kind) => (
            <Button
              key={kind}
              size="sm"
              onClick={() => onUseTemplate(torchTemplate(kind, problem.reference_source ?? ''), kind)}
            >
              {TORCH_TEMPLATE_NAMES[kind]}
            </Button>
          ))}
        </div>
        <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
          Each is right as it is: the reference's result passed through a kernel of that kind that copies it (one
          float32 output). Move the work into the kernel.
        </p>
      </div>
    </section>
  );
}
