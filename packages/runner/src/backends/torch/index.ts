// The torch backend as the registry lists it: PyTorch problems (KernelBench's format) answered with a ModelNew,
// on a cpu or a cuda device; its Python harness is the kforge_torch package in py/.
import type { Device } from '@kernelforge/sdk';
import { type BackendEntry, EvaluationSetupError, runBackend } from '../../evaluate/backend.js';
import { torchBackend, torchJobProblem } from './driver.js';
import { torchCudaUnavailable, torchToolchain, torchToolchainQuick } from './toolchain.js';

export const torch: BackendEntry = {
  name: 'torch',
  kind: 'pytorch',
  supports(device, settings) {
    const tc = torchToolchainQuick(settings.python);
    return { toolchains: tc.versions, ...unavailable(device, tc) };
  },
  evaluate(payload, { opts, settings, catalogued, job }) {
    const tp = torchJobProblem(payload, catalogued, opts.device);
    if (!tp) throw new EvaluationSetupError(`${payload.problem_name} has no sizes for ${opts.device.id}`);
    const tc = torchToolchain(settings.python);
    if (!tc.ok) throw new EvaluationSetupError(`pytorch problems are unavailable on this runner: ${tc.reason}`);
    const problem = {
      definition: tp,
      compiledBaseline: opts.compiledBaseline !== false,
      staged: opts.torchStaged === true,
      computeCapability: opts.computeCapability,
      facts: opts.profileFacts !== false,
      limitFloors: opts.torchLimitFloors,
    };
    return runBackend(torchBackend, job(problem));
  },
};

/** Why pytorch problems cannot run on `device` with this toolchain (no PyTorch; no CUDA build; another kind). */
function unavailable(device: Device, tc: ReturnType<typeof torchToolchainQuick>): { unavailable?: string } {
  if (!tc.ok) return { unavailable: tc.reason ?? 'no PyTorch' };
  if (device.kind === 'cuda') {
    const why = torchCudaUnavailable(tc.versions);
    return why ? { unavailable: why } : {};
  }
  return device.kind === 'cpu' ? {} : { unavailable: `the torch backend does not run on ${device.kind} devices` };
}
