// What the sweep commands share: printing a sweep and its fast_p, and the --min-fast1 / --min-fast-p gates.
import { FAST_P_KEYS, type FastPKey, type Sweep } from '@kernelforge/sdk';
import { InvalidArgumentError } from 'commander';
import type { CommandContext } from '../../core/context.js';
import { colorStatus, colorVerdict, formatSpeedup, paintCell } from '../../output/format.js';

export const FINAL_SWEEP_STATUSES = new Set(['completed', 'stopped', 'failed']);

/** `0.667` -> `66.7%`. */
export const percent = (share: number) => `${(share * 100).toFixed(1)}%`;

/** fast_p on one line: `fast_0 66.7%  fast_0.5 66.7%  fast_1 33.3% ...` (the point rule's figures with `point`). */
export function fastPLine(sweep: Pick<Sweep, 'fast_p'>, figures: Sweep['fast_p'] = sweep.fast_p): string {
  return FAST_P_KEYS.map((k) => `fast_${k} ${percent(figures[k])}`).join('  ');
}

/** How fast_p counts, said where it is printed. */
export const FAST_P_RULE =
  "a problem counts for p when its speedup's 95% interval lies above p (a speedup within noise of p does not)";

/** A share from 0 to 1 (for --min-fast1). */
export function share(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1) {
    throw new InvalidArgumentError('Expected a share from 0 to 1, e.g. 0.5.');
  }
  return n;
}

/** `P=X` (for --min-fast-p, repeatable): P one of 0, 0.5, 1, 1.5, 2, 5; X a share from 0 to 1. */
export function gate(value: string, previous: Array<[FastPKey, number]> = []): Array<[FastPKey, number]> {
  const m = /^([^=]+)=(.+)$/.exec(value.trim());
  const p = m ? String(Number(m[1])) : '';
  if (!m || !(FAST_P_KEYS as readonly string[]).includes(p)) {
    throw new InvalidArgumentError(
      `Expected P=X with P one of ${FAST_P_KEYS.join(', ')} and X a share from 0 to 1, e.g. 1=0.5.`,
    );
  }
  return [...previous, [p as FastPKey, share(m[2] as string)]];
}

/** The gates the score misses, in words; empty when it passes them all. */
export function missedGates(sweep: Pick<Sweep, 'fast_p'>, gates: ReadonlyArray<readonly [FastPKey, number]>): string[] {
  return gates
    .filter(([p, min]) => sweep.fast_p[p] < min)
    .map(([p, min]) => `fast_${p} is ${percent(sweep.fast_p[p])}, below the minimum of ${percent(min)}`);
}

export function printSweep(ctx: CommandContext, sweep: Sweep): void {
  const { output } = ctx;
  const { style } = output;
  output.fields([
    ['id', sweep.id],
    ['name', sweep.name],
    ['agent', `${sweep.agent.provider}${sweep.agent.model ? ` ${sweep.agent.model}` : ''}`],
    ['device', sweep.device],
    ['problems', sweep.set ? `set ${sweep.set} (${sweep.problem_count})` : String(sweep.problem_count)],
    ['attempts', `${sweep.attempts_per_problem} per problem`],
    ...(sweep.instruction ? [['instruction', sweep.instruction] as const] : []),
    ['status', `${colorStatus(style, sweep.status)} (${sweep.problems_done} of ${sweep.problem_count} done)`],
    ['fast_p', fastPLine(sweep)],
    ['fast_p rule', FAST_P_RULE],
    ['KernelBench', `${fastPLine(sweep, sweep.fast_p_point)}  ${style.dim('(its rule: the point speedup above p)')}`],
    ['geomean', formatSpeedup(sweep.geomean_speedup)],
    ...(sweep.token_usage.input_tokens + sweep.token_usage.output_tokens > 0
      ? [['tokens', `${sweep.token_usage.input_tokens} in, ${sweep.token_usage.output_tokens} out`] as const]
      : []),
  ]);
  output.line();
  output.table(sweep.problems, [
    { header: 'PROBLEM', value: (p) => p.problem_name },
    { header: 'STATUS', value: (p) => p.status, color: (t) => paintCell(t, (text) => colorStatus(style, text)) },
    { header: 'CORRECT', value: (p) => (p.status === 'completed' ? (p.correct ? 'yes' : 'no') : '-') },
    { header: 'SPEEDUP', value: (p) => formatSpeedup(p.speedup, p.speedup_interval), align: 'right' },
    {
      header: 'VERDICT',
      value: (p) => p.verdict ?? '-',
      color: (t, p) => paintCell(t, () => colorVerdict(style, p.verdict)),
    },
    { header: 'SESSION', value: (p) => p.session_id ?? '-' },
  ]);
}
