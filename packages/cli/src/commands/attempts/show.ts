// `kforge attempts show SESSION NUMBER|ID`: an attempt's source on stdout, its diff against the previous one, or its
// build facts (--build-facts).
import type { GenerationAttempt } from '@kernelforge/sdk';
import { Command } from 'commander';
import { type Runtime, examples, handle } from '../../core/command.js';
import type { CommandContext } from '../../core/context.js';
import { CliError, UsageError } from '../../core/errors.js';
import { ExitCode } from '../../core/exit-codes.js';
import { formatMs, formatSpeedup } from '../../output/format.js';
import { printBuildFacts, buildFactsJson } from '../../output/build-facts.js';
import { timingConditions, unifiedDiffText } from '@kernelforge/sdk';
import { attemptTime } from '../../watch/session-state.js';

interface ShowOptions {
  best?: boolean;
  diff?: boolean;
  buildFacts?: boolean;
}

export function attemptsShowCommand(runtime: Runtime): Command {
  const command = new Command('show')
    .description("print an attempt's source (to stdout), or its diff against the previous attempt")
    .argument('<session>', 'the session id')
    .argument('[attempt]', 'the attempt number (e.g. 3) or id; not needed with --best')
    .option('--best', 'the best attempt')
    .option('--diff', 'a unified diff against the previous attempt that has a source')
    .option(
      '--build-facts',
      'its build facts: assembly with the hot loop, vectorization report, counters (or why none)',
    );
  examples(command, [
    ['kforge attempts show 4f1c... 3 > relu.c', 'attempt #3 into a file'],
    ['kforge attempts show 4f1c... --best > best.c', 'the best attempt'],
    ['kforge attempts show 4f1c... 5 --diff', 'what changed since #4'],
    ['kforge attempts show 4f1c... 3 --build-facts', 'why it is as fast as it is: assembly, vectorization'],
    ['kforge attempts show 4f1c... 3 --json', 'the whole attempt with its evaluation'],
  ]);
  return handle<[string, string | undefined], ShowOptions>(runtime, command, show);
}

async function show(
  ctx: CommandContext,
  [sessionId, which]: [string, string | undefined],
  options: ShowOptions,
): Promise<ExitCode> {
  if (!which && !options.best) throw new UsageError('Say which attempt: its number, its id, or --best.');
  if (which && options.best) throw new UsageError('Give an attempt or --best, not both.');
  const client = await ctx.client();
  const session = await client.sessions.get(sessionId);
  const attempts = [...session.generation_attempts].sort((a, b) => a.attempt_number - b.attempt_number);
  let attempt: GenerationAttempt | undefined;
  if (options.best) {
    attempt = (await client.sessions.bestAttempt(sessionId)) ?? undefined;
  } else if (which && /^\d+$/.test(which)) {
    attempt = attempts.find((a) => a.attempt_number === Number(which));
  } else if (which) {
    attempt = attempts.find((a) => a.id === which);
  }
  if (!attempt) {
    throw new CliError(
      `Session ${sessionId} has no attempt ${which ?? ''}`.trimEnd() + '.',
      ExitCode.notFound,
      `It has attempts #1-#${attempts.length}; see \`kforge sessions show ${sessionId}\`.`,
    );
  }
  const { output } = ctx;
  if (options.diff && options.buildFacts) throw new UsageError('Give --diff or --build-facts, not both.');
  if (options.buildFacts) {
    if (output.json) output.printJson(buildFactsJson(attempt.evaluation_state));
    else printBuildFacts(output, `Attempt #${attempt.attempt_number}`, attempt.evaluation_state);
    return ExitCode.ok;
  }
  if (options.diff) {
    const current = attempt;
    const previous = attempts.filter((a) => a.attempt_number < current.attempt_number && a.source !== null).at(-1);
    const diff = previous
      ? unifiedDiffText(
          previous.source ?? '',
          current.source ?? '',
          `attempt #${previous.attempt_number}`,
          `attempt #${current.attempt_number}`,
        )
      : '';
    if (output.json) {
      output.printJson({ attempt: current, previous: previous ?? null, diff });
      return ExitCode.ok;
    }
    if (!previous) {
      output.info(`Attempt #${current.attempt_number} has no earlier attempt with a source to compare with.`);
      return ExitCode.ok;
    }
    if (!diff) output.info(`Attempt #${current.attempt_number} has the same source as #${previous.attempt_number}.`);
    const { style } = output;
    for (const line of diff.trimEnd().split('\n').filter(Boolean)) {
      if (line.startsWith('+++') || line.startsWith('---')) output.line(style.bold(line));
      else if (line.startsWith('@@')) output.line(style.cyan(line));
      else if (line.startsWith('+')) output.line(style.green(line));
      else if (line.startsWith('-')) output.line(style.red(line));
      else output.line(line);
    }
    return ExitCode.ok;
  }
  if (output.json) {
    output.printJson(attempt);
    return ExitCode.ok;
  }
  const evaluation = attempt.evaluation_state;
  output.info(
    output.errStyle.dim(
      `attempt #${attempt.attempt_number} · ${attempt.status}${evaluation ? ` · ${evaluation.verdict}` : ''}` +
        (attemptTime(attempt) !== undefined
          ? ` · ${formatMs(attemptTime(attempt))} (${formatSpeedup(evaluation?.benchmarking_result?.speedup, evaluation?.benchmarking_result?.speedup_interval)})`
          : ''),
    ),
  );
  const conditions = timingConditions(evaluation?.benchmarking_result?.load);
  if (conditions) output.info(output.errStyle.dim(conditions));
  if (attempt.source === null) {
    throw new CliError(
      `Attempt #${attempt.attempt_number} has no source (it is ${attempt.status}).`,
      ExitCode.notFound,
    );
  }
  output.stdout.write(attempt.source.endsWith('\n') ? attempt.source : `${attempt.source}\n`);
  return ExitCode.ok;
}
