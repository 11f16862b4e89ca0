// Profiler facts join an evaluation after it is judged, and only as facts: the one extra, untimed run of an
// accepted attempt (torch.profiler for PyTorch candidates, Nsight Compute for cuda ones) may add to
// `compile.facts` and nothing else. A run that fails, throws or overruns its bound leaves the state as it was
// (docs/evaluation.md "Build facts").
import { type BuildFacts, type EvaluationState, NOTHING_COMPILED } from '@kernelforge/sdk';

/** The longest the driver waits for a backend's profiled run (each run has its own, shorter, limit). */
export const PROFILE_LIMIT_MS = 150_000;

/** The state with `facts` as its compile report's facts; a state without a compile report (PyTorch candidates that
    build nothing) gets one that says so. Nothing else of the state changes. */
export function withFacts(state: EvaluationState, facts: BuildFacts): EvaluationState {
  const compile = state.compile ?? {
    ok: true,
    compiler: NOTHING_COMPILED,
    flags: [],
    log: '',
    duration_ms: 0,
  };
  return { ...state, compile: { ...compile, facts } };
}

/**
 * Runs a backend's profiled run for an accepted state, bounded by `limitMs`; its facts joined to the state. Not
 * accepted, no run; a run that throws or overruns: the state unchanged.
 */
export async function profileAccepted(
  state: EvaluationState,
  run: (() => Promise<BuildFacts | null>) | undefined,
  limitMs = PROFILE_LIMIT_MS,
): Promise<EvaluationState> {
  if (!run || state.verdict !== 'accepted') return state;
  let timer: NodeJS.Timeout | undefined;
  try {
    const facts = await Promise.race([
      run(),
      new Promise<null>((resolve) => {
        timer = setTimeout(() => resolve(null), limitMs);
      }),
    ]);
    return facts ? withFacts(state, facts) : state;
  } catch {
    return state;
  } finally {
    clearTimeout(timer);
  }
}
