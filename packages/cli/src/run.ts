// Runs one kforge invocation and returns its exit code; bin.ts exits with it.
import { CommanderError } from 'commander';
import type { Runtime, TelemetryHandle } from './core/command.js';
import { type CliIO, type CommandContext, createOutput } from './core/context.js';
import { describeError } from './core/errors.js';
import { ExitCode } from './core/exit-codes.js';
import { DEFAULT_API_URL } from './config/resolve.js';
import { buildProgram } from './program.js';
import { startTelemetry } from './telemetry/telemetry.js';

export interface RunOptions {
  /** Usage telemetry (default on; it still needs a key from the server and no opt-out). */
  telemetry?: boolean | ((ctx: CommandContext) => TelemetryHandle);
}

export async function run(argv: string[], io: CliIO, options: RunOptions = {}): Promise<number> {
  const runtime: Runtime = { io, exitCode: undefined, ctx: undefined, telemetry: undefined };
  if (options.telemetry !== false) {
    runtime.startTelemetry = typeof options.telemetry === 'function' ? options.telemetry : startTelemetry;
  }
  const program = buildProgram(runtime);
  let code: number;
  try {
    await program.parseAsync(argv, { from: 'user' });
    code = runtime.exitCode ?? ExitCode.ok;
  } catch (error) {
    code = exitCodeFor(error, runtime, argv);
  }
  await runtime.telemetry?.finish(code);
  return code;
}

function exitCodeFor(error: unknown, runtime: Runtime, argv: string[]): number {
  if (error instanceof CommanderError) {
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return ExitCode.ok;
    // `kforge sessions` without a subcommand shows the group's help: a usage error, but no extra message.
    return ExitCode.usage;
  }
  const json = argv.includes('--json');
  const output = runtime.ctx?.output ?? createOutput(runtime.io, { json });
  const described = describeError(
    error,
    runtime.ctx?.config.apiUrl ?? runtime.io.env.KFORGE_API_URL ?? DEFAULT_API_URL,
  );
  output.error(described.message, described.hint);
  if (runtime.io.env.KFORGE_DEBUG && error instanceof Error && error.stack) output.info(error.stack);
  return described.exitCode;
}
