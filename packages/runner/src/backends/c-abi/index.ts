// The C-ABI backend as the registry lists it: C/C++ candidates on a cpu (cBackend), CUDA candidates on a GPU
// (cudaBackend), both built against the problem's trusted C harness (packages/runner/c/).
import type { EvaluationJobPayload } from '@kernelforge/sdk';
import { type BackendEntry, EvaluationSetupError, runBackend } from '../../evaluate/backend.js';
import { customProblemDefinition } from '../../problems/custom.js';
import type { Catalogue, ProblemDefinition } from '../../problems/schema.js';
import { cBackend, cudaBackend } from './driver.js';

export const cAbi: BackendEntry = {
  name: 'c-abi',
  kind: 'c',
  supports: (device) =>
    device.kind === 'cpu' || device.kind === 'cuda'
      ? {}
      : { unavailable: `the c-abi backend does not run on ${device.kind} devices` },
  evaluate(payload, { opts, job }) {
    const problem = {
      definition: resolveProblem(payload, opts.problems),
      computeCapability: opts.computeCapability,
      onProfile: opts.onProfile,
    };
    return runBackend(opts.device.kind === 'cuda' ? cudaBackend : cBackend, job(problem));
  },
};

/** The job's problem: its custom problem, else the catalogue's. */
export function resolveProblem(payload: EvaluationJobPayload, problems: Catalogue): ProblemDefinition {
  if (payload.custom_problem) return customProblemDefinition(payload.problem_name, payload.custom_problem);
  const p = problems.get(payload.problem_name);
  if (!p) throw new EvaluationSetupError(`unknown problem ${payload.problem_name}`);
  return p;
}
