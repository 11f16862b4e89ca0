// `kforge sessions show ID`: a session with its attempts table (or only its best attempt).
import type { AgentSession, GenerationAttempt } from '@kernelforge/sdk';
import { Command } from 'commander';
import { type Runtime, examples, handle } from '../../core/command.js';
import type { CommandContext } from '../../core/context.js';
import { ExitCode } from '../../core/exit-codes.js';
import type { Output } from '../../output/output.js';
import {
  colorStatus,
  colorVerdict,
  formatDate,
  formatMs,
  formatSpeedup,
  paintCell,
  truncate,
} from '../../output/format.js';
import { attemptTime } from '../../watch/session-state.js';

interface ShowOptions {
  best?: boolean;
}

export function sessionsShowCommand(runtime: Runtime): Command {
  const command = new Command('show')
    .description('show a session and its attempts (the best one is marked *)')
    .argument('<session>', 'the session id')
    .option('--best', 'show only the best attempt');
  examples(command, [
    ['kforge sessions show 4f1c...', 'the attempts table'],
    ['kforge sessions show 4f1c... --best --json', 'the best attempt as JSON'],
  ]);
  return handle<[string], ShowOptions>(runtime, command, show);
}

async function show(ctx: CommandContext, [id]: [string], options: ShowOptions): Promise<ExitCode> {
  const client = await ctx.client();
  const { output } = ctx;
  if (options.best) {
    const attempt = await client.sessions.bestAttempt(id);
    if (output.json) output.printJson(attempt);
    else printAttempt(output, attempt);
    return ExitCode.ok;
  }
  const session = await client.sessions.get(id);
  if (output.json) {
    output.printJson(session);
    return ExitCode.ok;
  }
  printSession(output, session);
  return ExitCode.ok;
}

export function printAttempt(output: Output, attempt: GenerationAttempt): void {
  const evaluation = attempt.evaluation_state;
  const { style } = output;
  output.fields([
    ['Attempt', `#${attempt.attempt_number} (${attempt.id})`],
    ['Status', colorStatus(style, attempt.status)],
    ['Verdict', colorVerdict(style, evaluation?.verdict)],
    ['Time', formatMs(attemptTime(attempt))],
    [
      'Speedup',
      formatSpeedup(evaluation?.benchmarking_result?.speedup, evaluation?.benchmarking_result?.speedup_interval),
    ],
    ['Language', attempt.language],
    ...(evaluation?.message ? ([['Result', evaluation.message]] as const) : []),
    ...(attempt.error ? ([['Error', attempt.error]] as const) : []),
    ...(attempt.explanation ? ([['Explanation', truncate(attempt.explanation, 200)]] as const) : []),
  ]);
}

export function printSession(output: Output, session: AgentSession): void {
  const { style } = output;
  const best = session.best_attempt;
  output.fields([
    ['Session', `${style.bold(session.name)} (${session.id})`],
    ['Problem', session.problem_name],
    ['Device', session.device],
    ['Agent', `${session.agent.provider}${session.agent.model ? ` / ${session.agent.model}` : ''}`],
    ['Status', `${colorStatus(style, session.status)}${session.deleted_at ? style.red(' (deleted)') : ''}`],
    ['Created', formatDate(session.created_at)],
    ['Best', best && best.status === 'completed' ? `#${best.attempt_number} ${formatMs(attemptTime(best))}` : '-'],
  ]);
  const instructions = new Map(session.user_instructions.map((i) => [i.id, i]));
  output.line();
  if (session.generation_attempts.length === 0) {
    output.line(style.dim('No attempts yet.'));
    return;
  }
  const attempts = [...session.generation_attempts].sort((a, b) => a.attempt_number - b.attempt_number);
  output.table(attempts, [
    {
      header: '#',
      value: (a) => `${a.attempt_number}${best && best.status === 'completed' && a.id === best.id ? '*' : ''}`,
      align: 'right',
    },
    { header: 'STATUS', value: (a) => a.status, color: (t) => paintCell(t, (s) => colorStatus(style, s)) },
    {
      header: 'VERDICT',
      value: (a) => a.evaluation_state?.verdict ?? '-',
      color: (t) => paintCell(t, (s) => (s === '-' ? style.dim(s) : colorVerdict(style, s))),
    },
    { header: 'TIME', value: (a) => formatMs(attemptTime(a)), align: 'right' },
    {
      header: 'SPEEDUP',
      value: (a) => formatSpeedup(a.evaluation_state?.benchmarking_result?.speedup),
      align: 'right',
    },
    { header: 'INSTRUCTION', value: (a) => truncate(instructions.get(a.instruction_id ?? '')?.name ?? '-', 40) },
  ]);
}
