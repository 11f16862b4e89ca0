// `kforge sessions custom PROBLEM.json`: an agent session on a problem of your own (POST /agent-session/custom).
import { readFile } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import type { Language } from '@kernelforge/sdk';
import { Command } from 'commander';
import { type Runtime, examples, handle } from '../../core/command.js';
import type { CommandContext } from '../../core/context.js';
import { UsageError } from '../../core/errors.js';
import type { ExitCode } from '../../core/exit-codes.js';
import { addStartOptions, checkStartOptions, reportStarted, type StartOptions, startFields } from './start-options.js';

interface CustomOptions extends StartOptions {
  reference?: string;
  solution?: string;
}

const LANGUAGES: Record<string, Language> = { '.c': 'c', '.cc': 'cpp', '.cpp': 'cpp', '.cxx': 'cpp', '.cu': 'cuda' };

export function sessionsCustomCommand(runtime: Runtime): Command {
  const command = addStartOptions(
    new Command('custom')
      .description('start an agent session on a problem of your own (private; never on a leaderboard)')
      .argument(
        '<problem.json>',
        'the problem: {signature, cases: {test, benchmark}, reference_source?, language?, tolerance?, cost?, description?}',
      )
      .option('--reference <file>', "the reference's source (instead of reference_source in the JSON)")
      .option('--solution <file>', 'a first candidate of your own, evaluated as attempt #1'),
    "a name for the session (default: the JSON file's name)",
  );
  examples(command, [
    ['kforge sessions custom scale.json --reference scale.c', 'a problem of your own, its reference in C'],
    ['kforge sessions custom scale.json --reference scale.c --solution mine.c --watch', 'start from your kernel'],
  ]);
  return handle<[string], CustomOptions>(runtime, command, custom);
}

async function readText(file: string, what: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(`Cannot read the ${what} ${file}${code === 'ENOENT' ? ': no such file' : `: ${code}`}.`);
  }
}

async function custom(ctx: CommandContext, [file]: [string], options: CustomOptions): Promise<ExitCode> {
  checkStartOptions(options);
  let raw: unknown;
  try {
    raw = JSON.parse(await readText(file, 'problem file'));
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`${file} is not JSON: ${(error as Error).message}.`);
  }
  const problem = { ...(typeof raw === 'object' && raw !== null ? raw : {}) } as Record<string, unknown>;
  if (options.reference) {
    problem.reference_source = await readText(options.reference, 'reference');
    const language = LANGUAGES[extname(options.reference).toLowerCase()];
    if (language && problem.language === undefined) problem.language = language;
  }
  // The sdk (and zod) load here, not when `--help` runs.
  const { CustomProblemInput } = await import('@kernelforge/sdk');
  const parsed = CustomProblemInput.safeParse(problem);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(top level)'}: ${i.message}`);
    throw new UsageError(
      `${file} is not a valid problem:\n  ${issues.join('\n  ')}`,
      problem.reference_source === undefined ? 'Give the reference with --reference FILE.' : undefined,
    );
  }
  const solution = options.solution ? await readText(options.solution, 'solution') : undefined;
  const client = await ctx.client();
  const session = await client.sessions.createCustom({
    name: options.name ?? basename(file, extname(file)),
    problem: parsed.data,
    ...(await startFields(client, options)),
    ...(solution ? { solution_source: solution } : {}),
  });
  return reportStarted(ctx, client, session, options, 'custom session');
}
