// The registry of evaluation backends: one folder each under backends/ (its driver, its report's schema, its
// toolchain, what it supports on a device), listed here once. evaluate() picks a job's backend by its problem's kind;
// device discovery asks every backend what it supports on each device. Adding a backend: its folder, one line here.
import type { ProblemKind } from '@kernelforge/sdk';
import type { BackendEntry } from '../evaluate/backend.js';
import { cAbi } from './c-abi/index.js';
import { torch } from './torch/index.js';

export const BACKENDS: readonly BackendEntry[] = [cAbi, torch];

/** The backend that evaluates problems of `kind` (undefined: none does). */
export function backendFor(kind: ProblemKind): BackendEntry | undefined {
  return BACKENDS.find((b) => b.kind === kind);
}
