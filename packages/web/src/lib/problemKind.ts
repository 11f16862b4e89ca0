// What differs between C-ABI and pytorch problems on screen: language names and choices, which devices can run a
// problem, and how tensor shapes and sizes read.
import type { Device, Language, Problem, TorchValue } from '@kernelforge/sdk';

export const LANGUAGE_NAMES: Record<Language, string> = { c: 'C', cpp: 'C++', cuda: 'CUDA', pytorch: 'PyTorch' };

export const languageName = (language: string): string => LANGUAGE_NAMES[language as Language] ?? language;

export const isTorchProblem = (problem: Pick<Problem, 'kind'> | undefined): boolean => problem?.kind === 'pytorch';

/** The languages a solution may be written in: `pytorch` alone for a pytorch problem (on any device, as the server
    rules), else the problem's languages that the device compiles. */
export function languagesFor(problem: Problem | undefined, device: Device | undefined): Language[] {
  if (isTorchProblem(problem)) return ['pytorch'];
  return (problem?.languages ?? ['c', 'cpp', 'cuda']).filter(
    (l) => l !== 'pytorch' && (!device || device.languages.length === 0 || device.languages.includes(l)),
  );
}

/** Why `device` cannot run `problem` (its runner says the kind is unavailable, or it has no PyTorch), or null. */
export function deviceRefusal(device: Device, problem: Problem | undefined): string | null {
  if (!problem) return null;
  const kind = problem.kind ?? 'c';
  const said = device.unavailable?.find((u) => u.kind === kind);
  if (said) return said.reason;
  if (kind === 'pytorch' && !device.toolchains?.torch) return 'no PyTorch on its runner';
  return null;
}

/** A tensor as `float32[4096, 4096]`; a plain value as its type and repr, e.g. `int 3`. */
export function torchValueLabel(value: TorchValue): string {
  if (value.type === 'tensor') return `${value.dtype ?? 'tensor'}[${(value.shape ?? []).join(', ')}]`;
  return `${value.type} ${value.repr ?? ''}`.trim();
}

/** Module constants as `batch_size = 512, dim = 16384`. */
export function constantsLabel(constants: Record<string, number>): string {
  return Object.entries(constants)
    .map(([name, value]) => `${name} = ${value}`)
    .join(', ');
}

/** The device kind whose sizes to show: the chosen device's, else cpu, else the first the problem has. */
export function sizesKind(problem: Problem, device: Pick<Device, 'kind'> | undefined): string | undefined {
  const sizes = problem.torch?.sizes ?? {};
  if (device) return device.kind;
  return 'cpu' in sizes ? 'cpu' : Object.keys(sizes)[0];
}
