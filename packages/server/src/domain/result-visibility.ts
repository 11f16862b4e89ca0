// What a reader other than a result's author sees of it (issue 31): its figures, never what was derived from its source.
import type { BenchmarkingResult, CorrectnessCase, EvaluationState } from '@kernelforge/sdk';
import type { Caller } from './sessions/service.js';

/** The author and superusers read a result whole; everyone else reads its figures (figuresOnly). */
export function readsWhole(viewer: Pick<Caller, 'id' | 'is_superuser'>, authorId: string): boolean {
  return viewer.is_superuser || viewer.id === authorId;
}

/**
 * A result as a reader other than its author sees it: the verdict, timings, speedups, intervals, roofline figures,
 * load and timing conditions, the environment and the correctness summary (each case's pass or fail and its error
 * figures). Left out: the compile log (gcc quotes source lines in its warnings), the build facts (the assembly and
 * vectorization report name the source's functions and loops), the candidate's stdout and stderr,
 * each case's message (it quotes the candidate's output), a verdict's message unless it is the judge's figures of an
 * accepted result, and where and what the source scan found. Built field by field, so a field added to the report
 * later stays the author's until it is added here.
 */
export function figuresOnly(state: EvaluationState): EvaluationState {
  const bench = state.benchmarking_result;
  return {
    verdict: state.verdict,
    mode: state.mode,
    message:
      state.verdict === 'accepted' ? state.message : `${state.verdict}: the details are visible to the author only`,
    compile: state.compile
      ? {
          ok: state.compile.ok,
          compiler: state.compile.compiler,
          flags: state.compile.flags,
          log: '',
          duration_ms: state.compile.duration_ms,
        }
      : null,
    correctness: state.correctness
      ? { passed: state.correctness.passed, cases: state.correctness.cases.map(caseFigures) }
      : null,
    ...(bench === undefined ? {} : { benchmarking_result: bench === null ? null : benchFigures(bench) }),
    ...(state.environment ? { environment: state.environment } : {}),
    runner_seconds: state.runner_seconds,
    evaluated_at: state.evaluated_at,
    ...(state.sizes_used ? { sizes_used: state.sizes_used } : {}),
    redacted: true,
  };
}

function caseFigures(c: CorrectnessCase): CorrectnessCase {
  const { message: _quotesOutput, ...figures } = c;
  return figures;
}

function benchFigures(bench: BenchmarkingResult): BenchmarkingResult {
  return { ...bench, review_reasons: publicReviewReasons(bench.review_reasons) };
}

// The runner's source scan (python-scan.ts) words a reason `line N: <what> (<details>): <why>`, the details quoting
// the source (names, string literals); the judge's reasons (speedup, peak, clock, load) are figures.
const SCAN_REASON = /^lines? \d[\d, and more]*: /;

/** Review reasons as a reader other than the author sees them: the scan's say what kind of thing was found, not
    where or what exactly. */
export function publicReviewReasons(reasons: readonly string[]): string[] {
  return reasons.map((reason) => {
    const prefix = SCAN_REASON.exec(reason);
    if (!prefix) return reason;
    const rest = reason.slice(prefix[0].length);
    const open = rest.indexOf(' (');
    const close = rest.lastIndexOf('): ');
    if (open <= 0 || close < open) return 'the source scan flagged a construct (visible to the author only)';
    return `${rest.slice(0, open)}: ${rest.slice(close + 3)} (where, and what exactly: visible to the author only)`;
  });
}
