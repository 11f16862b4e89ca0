// Building blocks of every command: the shared --json flag, examples in help, and the action wrapper
// that builds the context, runs the handler and records its exit code (process.exit stays in bin.ts).
import { type Command, InvalidArgumentError } from 'commander';
import { type CliIO, type CommandContext, createContext, type GlobalOptions } from './context.js';
import type { ExitCode } from './exit-codes.js';

export interface TelemetryHandle {
  finish(exitCode: number): Promise<void>;
}

/** Shared by the program and its commands for one run. */
export interface Runtime {
  readonly io: CliIO;
  exitCode: ExitCode | undefined;
  ctx: CommandContext | undefined;
  telemetry: TelemetryHandle | undefined;
  /** Starts usage telemetry for a command (injected so tests and `--help` never load it). */
  startTelemetry?: (ctx: CommandContext) => TelemetryHandle;
}

export type Handler<Args extends unknown[], Options> = (
  ctx: CommandContext,
  args: Args,
  options: Options & GlobalOptions,
) => Promise<ExitCode>;

/** The command's name from the root, e.g. `sessions list`. */
export function commandPath(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** Wires a handler to a command; `Args` are its positional arguments in order. */
export function handle<Args extends unknown[], Options = Record<string, never>>(
  runtime: Runtime,
  command: Command,
  handler: Handler<Args, Options>,
): Command {
  command.option('--json', 'print only JSON (the API shapes) on stdout');
  command.action(async (...all: unknown[]) => {
    const self = all[all.length - 1] as Command;
    const args = all.slice(0, -2) as Args;
    const options = self.optsWithGlobals() as Options & GlobalOptions;
    const ctx = await createContext(runtime.io, commandPath(self), options);
    runtime.ctx = ctx;
    if (runtime.startTelemetry) runtime.telemetry = runtime.startTelemetry(ctx);
    runtime.exitCode = await handler(ctx, args, options);
  });
  return command;
}

/** Appends an Examples section to a command's help: what it does, then the command line. */
export function examples(command: Command, lines: ReadonlyArray<readonly [string, string]>): Command {
  const text = lines.map(([cmd, what]) => `  # ${what}\n  $ ${cmd}`).join('\n\n');
  return command.addHelpText('after', `\nExamples:\n${text}`);
}

export function positiveInt(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < 1) {
    throw new InvalidArgumentError('Expected a whole number of 1 or more.');
  }
  return n;
}

export function nonNegativeInt(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n)) {
    throw new InvalidArgumentError('Expected a whole number of 0 or more.');
  }
  return n;
}
