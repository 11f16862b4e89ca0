// `kforge submit PROBLEM FILE`: a ranked evaluation of your own source; --wait follows it to a verdict.
// `kforge test PROBLEM FILE` ("Run tests"): the same source compiled, checked and benchmarked in benchmark mode on
// public inputs, followed to its verdict; never ranked, never on a leaderboard, its own limits.
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import type { Language, SubmissionDetail } from '@kernelforge/sdk';
import { Command, Option } from 'commander';
import { type Runtime, examples, handle, positiveInt } from '../../core/command.js';
import type { CommandContext } from '../../core/context.js';
import { CliError, UsageError } from '../../core/errors.js';
import { ExitCode } from '../../core/exit-codes.js';
import { defaultDevice } from '../../internal/devices.js';
import { readStdin } from '../../internal/prompt.js';
import { formatMs, formatSpeedup } from '../../output/format.js';
import { isAccepted, isSubmissionDone, pollSubmission, submissionWaitLine } from '../../watch/submission.js';

interface SubmitOptions {
  device?: string;
  language?: Language;
  wait?: boolean;
  timeout?: number;
}

const EXTENSIONS: Record<string, Language> = {
  '.c': 'c',
  '.cpp': 'cpp',
  '.cc': 'cpp',
  '.cxx': 'cpp',
  '.c++': 'cpp',
  '.cu': 'cuda',
  '.py': 'pytorch',
};

export function submitCommand(runtime: Runtime): Command {
  const command = new Command('submit')
    .description('submit a source file for a ranked evaluation on a problem; accepted ones enter its leaderboard')
    .argument('<problem>', 'the problem name, e.g. 19_ReLU')
    .argument(
      '<file>',
      "the source file (- reads stdin): C/C++/CUDA defining `solution` with the problem's prototype, or for a pytorch problem a .py file defining class ModelNew",
    )
    .option('-d, --device <id>', "the device (default: the server's cpu device)")
    .addOption(
      new Option(
        '-l, --language <language>',
        'the language (default: from the extension: .c, .cpp/.cc, .cu, .py for pytorch)',
      ).choices(['c', 'cpp', 'cuda', 'pytorch']),
    )
    .option('-w, --wait', 'wait for the verdict (exit 5 when the kernel is not accepted)')
    .option('--timeout <seconds>', 'give up waiting after this long (default 900)', positiveInt);
  command.addHelpText(
    'after',
    `
With --wait the exit code tells the outcome: 0 accepted, 5 evaluated but not accepted (wrong, too slow to
compile, crashed...), 1 the evaluation could not run or the wait timed out.`,
  );
  examples(command, [
    ['kforge submit 19_ReLU relu.c', 'queue it and print its id'],
    ['kforge submit 19_ReLU relu.c --wait', 'follow it to a verdict'],
    ['kforge submit 19_ReLU relu.cu --device cuda-H100 --wait', 'on a GPU'],
    ['kforge submit 19_ReLU relu.c --wait --json', 'in CI: JSON on stdout, non-zero exit unless accepted'],
    ['kforge submit 201_Gemm_GELU_Scale model_new.py --wait', 'a pytorch problem: a ModelNew file'],
  ]);
  return handle<[string, string], SubmitOptions>(runtime, command, (ctx, args, options) =>
    submit(ctx, args, options, 'submit'),
  );
}

export function testCommand(runtime: Runtime): Command {
  const command = new Command('test')
    .description(
      'run tests: compile a source file, check it against the reference and benchmark it on public inputs; never ranked, never on a leaderboard',
    )
    .argument('<problem>', 'the problem name, e.g. 19_ReLU')
    .argument('<file>', 'the source file (- reads stdin), as for kforge submit')
    .option('-d, --device <id>', "the device (default: the server's cpu device)")
    .addOption(
      new Option(
        '-l, --language <language>',
        'the language (default: from the extension: .c, .cpp/.cc, .cu, .py for pytorch)',
      ).choices(['c', 'cpp', 'cuda', 'pytorch']),
    )
    .option('--timeout <seconds>', 'give up waiting after this long (default 900)', positiveInt);
  command.addHelpText(
    'after',
    `
It waits for the verdict. Exit code: 0 accepted, 5 evaluated but not accepted, 1 the run could not be made or the
wait timed out. Test runs do not use the daily submission quota; at most 2 run at once.`,
  );
  examples(command, [
    ['kforge test 19_ReLU relu.c', 'check and time it before submitting'],
    ['kforge test 19_ReLU relu.c --json', 'the whole result as JSON'],
  ]);
  return handle<[string, string], Omit<SubmitOptions, 'wait'>>(runtime, command, (ctx, args, options) =>
    submit(ctx, args, { ...options, wait: true }, 'test'),
  );
}

async function submit(
  ctx: CommandContext,
  [problem, file]: [string, string],
  options: SubmitOptions,
  purpose: 'submit' | 'test',
): Promise<ExitCode> {
  const language = options.language ?? EXTENSIONS[extname(file).toLowerCase()];
  if (!language) {
    throw new UsageError(
      `Cannot tell the language of ${file} from its extension.`,
      'Pass --language c, cpp, cuda or pytorch.',
    );
  }
  const source = await readSource(ctx, file);
  if (!source.trim()) throw new UsageError(`${file} is empty.`);
  const client = await ctx.client();
  // Said here, before anything is queued, in words that name the fix (the server would answer a bare 422).
  const kind = (await client.problems.get(problem)).kind ?? 'c';
  if (kind === 'pytorch' && language !== 'pytorch')
    throw new UsageError(
      `${problem} is a PyTorch problem: it takes a Python file defining class ModelNew, not ${language} source.`,
      `Start from its reference: kforge problems show ${problem} --reference > model_new.py (rename Model to ModelNew), then kforge submit ${problem} model_new.py.`,
    );
  if (kind !== 'pytorch' && language === 'pytorch')
    throw new UsageError(
      `${problem} is a C-ABI problem: a Python (pytorch) file cannot solve it.`,
      `Submit C, C++ or CUDA source that defines \`solution\` (see kforge problems show ${problem}).`,
    );
  const device = options.device ?? (await defaultDevice(client));
  const body = { problem_name: problem, device, language, source };
  const created = purpose === 'test' ? await client.submissions.test(body) : await client.submissions.create(body);
  const { output } = ctx;
  if (!options.wait) {
    if (output.json) output.printJson(created);
    else {
      output.line(created.id);
      output.success(`Submitted to ${problem} on ${device}; it is ${created.status}.`);
      output.info(
        `Wait for the verdict: kforge submit ${problem} ${file} --wait (or see \`kforge leaderboard ${problem}\`).`,
      );
    }
    return ExitCode.ok;
  }

  const controller = new AbortController();
  const timeoutMs = (options.timeout ?? 900) * 1000;
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const pollMs = Number(ctx.env.KFORGE_POLL_MS) || undefined;
  const updates = pollSubmission(client, created.id, {
    signal: controller.signal,
    ...(pollMs ? { intervalMs: pollMs } : {}),
  });
  let final: SubmissionDetail | undefined;
  try {
    if (output.interactive) {
      const { renderSubmissionProgress } = await import('../../ui/render.js');
      final = (await renderSubmissionProgress(ctx.io, { initial: created, updates }))?.submission;
      if (!final) {
        output.info(`Stopped waiting; submission ${created.id} is still evaluated on the server.`);
        return ExitCode.ok;
      }
    } else {
      let last = created.status as string;
      if (!output.json)
        output.info(
          purpose === 'test'
            ? `Test run ${created.id} (not ranked); waiting for the verdict...`
            : `Submitted ${created.id}; waiting for the verdict...`,
        );
      let lastWait = '';
      for await (const update of updates) {
        if (!output.json && update.status !== last) output.info(`${update.status}`);
        last = update.status;
        // Why it waits, said again when its words change (not for each second waited or sample taken).
        const wait = submissionWaitLine(update);
        const key = wait?.replace(/\d+(\.\d+)?/g, '#') ?? '';
        if (!output.json && wait && key !== lastWait) output.info(wait);
        lastWait = key;
        final = update;
      }
    }
  } catch (error) {
    if (!controller.signal.aborted) throw error;
  } finally {
    clearTimeout(timer);
  }
  if (!final || !isSubmissionDone(final)) {
    throw new CliError(
      `${purpose === 'test' ? 'Test run' : 'Submission'} ${created.id} is still ${final?.status ?? created.status} after ${timeoutMs / 1000} s.`,
      ExitCode.error,
      'Wait longer with --timeout, or look later: the evaluation goes on.',
    );
  }
  if (output.json) output.printJson(final);
  else if (!output.interactive) printOutcome(ctx, final);
  if (isAccepted(final)) return ExitCode.ok;
  if (final.status === 'failed') {
    if (!output.json)
      output.error(`The evaluation could not run: ${final.error ?? 'no reason given'}.`, 'Try again later.');
    return ExitCode.error;
  }
  return ExitCode.notAccepted;
}

function printOutcome(ctx: CommandContext, submission: SubmissionDetail): void {
  const { output } = ctx;
  const verdict = submission.verdict ?? submission.evaluation_state?.verdict ?? submission.status;
  if (submission.purpose === 'test') {
    printTestRun(ctx, submission, verdict);
    return;
  }
  if (isAccepted(submission)) {
    output.line(
      `accepted ${formatMs(submission.time_ms)} ${formatSpeedup(submission.speedup)}${submission.rank ? ` rank ${submission.rank}` : ''}`,
    );
  } else {
    // The runner's messages already lead with the verdict ("rejected: work went on ..."): say it once.
    const message = submission.evaluation_state?.message;
    output.line(message?.startsWith(`${verdict}:`) ? message : `${verdict}${message ? `: ${message}` : ''}`);
  }
}

/** A test run's result: its verdict and message, its correctness cases, its timings; it is never ranked. */
function printTestRun(ctx: CommandContext, submission: SubmissionDetail, verdict: string): void {
  const { output } = ctx;
  const state = submission.evaluation_state;
  const message = state?.message;
  output.line(
    `test run: ${message?.startsWith(`${verdict}:`) ? message : `${verdict}${message ? `: ${message}` : ''}`}`,
  );
  const cases = state?.correctness?.cases ?? [];
  if (cases.length) {
    const passed = cases.filter((c) => c.passed).length;
    output.line(`correctness: ${passed}/${cases.length} cases passed`);
    for (const c of cases.filter((x) => !x.passed))
      output.line(`  ${c.name}: max abs error ${c.max_abs_error}, max rel error ${c.max_rel_error}`);
  }
  const bench = state?.benchmarking_result;
  if (bench)
    output.line(
      `time: ${formatMs(bench.optimized_time)} (reference ${formatMs(bench.baseline_time)}) ${formatSpeedup(bench.speedup)}`,
    );
  if (submission.status === 'failed') return;
  output.info('Not ranked: kforge submit puts it on the leaderboard.');
}

async function readSource(ctx: CommandContext, file: string): Promise<string> {
  if (file === '-') return readStdin(ctx.io.stdin as AsyncIterable<unknown>);
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(`Cannot read ${file}${code === 'ENOENT' ? ': no such file' : `: ${code ?? error}`}.`);
  }
}
