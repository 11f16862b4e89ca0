// The verdict on a failure, decided here for both harnesses. A harness (c/harness_*.c, backends/torch/py/kforge_torch/)
// stops at the first failure it sees and reports what it saw as a fact: a code from FACTS below and a message with
// the numbers. This table turns each fact into the verdict. The harnesses still print the verdict they have always
// printed beside the fact, as a cross-check only: where the two differ, the judge's table and a harness have drifted
// apart, and the result is a runtime_error that says so, never either verdict silently.
import type { Verdict } from '@kernelforge/sdk';

/** Every fact a harness (or the driver, for a harness that gave no report) reports, and its verdict. */
export const FACTS = {
  // The candidate's outputs: wrong, or not the same bits twice.
  outputs_differ: 'incorrect',
  wrote_input: 'incorrect',
  nondeterministic: 'nondeterministic',
  // Work outside the timed window, or the harness's own view of the call kept from it.
  work_after_return: 'rejected',
  outputs_changed_after_return: 'rejected',
  all_calls_flagged: 'rejected',
  forged_reply: 'rejected',
  probe_refused: 'rejected',
  // Time.
  call_timeout: 'timeout',
  slept: 'timeout',
  harness_timeout: 'timeout',
  // Failures that are not a cheat: the candidate's worker crashed or raised, the reference or its baseline failed,
  // the harness itself could not go on.
  worker_failed: 'runtime_error',
  baseline_failed: 'runtime_error',
  unsupported: 'runtime_error',
  harness_failed: 'runtime_error',
  no_report: 'runtime_error',
} as const satisfies Record<string, Exclude<Verdict, 'accepted' | 'implausible' | 'compile_error' | 'compile_timeout'>>;

export type Fact = keyof typeof FACTS;

export function isFact(x: unknown): x is Fact {
  return typeof x === 'string' && Object.hasOwn(FACTS, x);
}

/** The verdict of a fact. */
export function verdictOf(fact: Fact): (typeof FACTS)[Fact] {
  return FACTS[fact];
}

/**
 * The verdict on a harness's report of a failure: the fact's, from FACTS. `verdict` is the one the harness printed
 * beside it, compared only: a report whose fact is missing or unknown, or whose verdict is not the fact's, is a
 * runtime_error naming both. Undefined for a report of no failure (accepted, no fact): the timed run is judged next.
 */
export function judgeFailure(report: {
  verdict: string;
  fact?: string | null | undefined;
}): { verdict: (typeof FACTS)[Fact]; fact: Fact | null; mismatch?: string } | undefined {
  const { verdict, fact } = report;
  if (verdict === 'accepted' && (fact === undefined || fact === null)) return undefined;
  if (!isFact(fact))
    return {
      verdict: 'runtime_error',
      fact: null,
      mismatch: `the harness reported ${fact ? `an unknown fact (${fact})` : 'no fact'} beside its verdict ${verdict}`,
    };
  const decided = FACTS[fact];
  if (decided !== verdict)
    return {
      verdict: 'runtime_error',
      fact,
      mismatch: `the harness's verdict (${verdict}) is not the judge's (${decided}) for the fact ${fact}`,
    };
  return { verdict: decided, fact };
}
