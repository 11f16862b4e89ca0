// `kforge sweep compare A B`: two sweeps side by side, fast_p and per problem.
import { FAST_P_KEYS, type Sweep } from '@kernelforge/sdk';
import { Command } from 'commander';
import { type Runtime, examples, handle } from '../../core/command.js';
import type { CommandContext } from '../../core/context.js';
import { ExitCode } from '../../core/exit-codes.js';
import { formatSpeedup } from '../../output/format.js';
import { percent } from './shared.js';

export function sweepCompareCommand(runtime: Runtime): Command {
  const command = new Command('compare')
    .description('two sweeps side by side: fast_p and per-problem differences')
    .argument('<a>', 'the first sweep id')
    .argument('<b>', 'the second sweep id');
  examples(command, [
    ['kforge sweep compare SWEEP_A SWEEP_B', 'the tables'],
    ['kforge sweep compare SWEEP_A SWEEP_B --json', '{a, b, fast_p, problems} as JSON'],
  ]);
  return handle<[string, string]>(runtime, command, compare);
}

/** Per problem (of either sweep): both results and the speedup ratio b/a where both are correct. */
export function comparison(a: Sweep, b: Sweep) {
  const names = [...new Set([...a.problems, ...b.problems].map((p) => p.problem_name))];
  const find = (s: Sweep, name: string) => s.problems.find((p) => p.problem_name === name) ?? null;
  return {
    a: { id: a.id, name: a.name, status: a.status, geomean_speedup: a.geomean_speedup },
    b: { id: b.id, name: b.name, status: b.status, geomean_speedup: b.geomean_speedup },
    fast_p: FAST_P_KEYS.map((p) => ({ p, a: a.fast_p[p], b: b.fast_p[p], difference: b.fast_p[p] - a.fast_p[p] })),
    problems: names.map((name) => {
      const pa = find(a, name);
      const pb = find(b, name);
      const both = pa?.correct && pb?.correct && pa.speedup && pb.speedup;
      return {
        problem_name: name,
        a: pa ? { correct: pa.correct, speedup: pa.speedup, status: pa.status } : null,
        b: pb ? { correct: pb.correct, speedup: pb.speedup, status: pb.status } : null,
        speedup_ratio: both ? (pb.speedup as number) / (pa.speedup as number) : null,
      };
    }),
  };
}

async function compare(ctx: CommandContext, [idA, idB]: [string, string]): Promise<ExitCode> {
  const client = await ctx.client();
  const [a, b] = await Promise.all([client.sweeps.get(idA), client.sweeps.get(idB)]);
  const result = comparison(a, b);
  const { output } = ctx;
  if (output.json) {
    output.printJson(result);
    return ExitCode.ok;
  }
  output.fields([
    ['A', `${a.name} (${a.id}, ${a.status})`],
    ['B', `${b.name} (${b.id}, ${b.status})`],
  ]);
  output.line();
  const signed = (d: number) => `${d > 0 ? '+' : ''}${(d * 100).toFixed(1)} pt`;
  output.table(result.fast_p, [
    { header: 'P', value: (r) => `fast_${r.p}` },
    { header: 'A', value: (r) => percent(r.a), align: 'right' },
    { header: 'B', value: (r) => percent(r.b), align: 'right' },
    { header: 'B-A', value: (r) => signed(r.difference), align: 'right' },
  ]);
  output.line();
  const cell = (r: { correct: boolean; speedup: number | null; status: string } | null) =>
    !r ? '-' : r.status !== 'completed' ? r.status : r.correct ? formatSpeedup(r.speedup) : 'incorrect';
  output.table(result.problems, [
    { header: 'PROBLEM', value: (r) => r.problem_name },
    { header: 'A', value: (r) => cell(r.a), align: 'right' },
    { header: 'B', value: (r) => cell(r.b), align: 'right' },
    {
      header: 'B/A',
      value: (r) => (r.speedup_ratio === null ? '-' : `${r.speedup_ratio.toFixed(2)}x`),
      align: 'right',
    },
  ]);
  return ExitCode.ok;
}
