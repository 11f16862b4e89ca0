// Mounting the Ink screens on the command's streams; loaded only by commands that show one.
import { render } from 'ink';
import type { CliIO } from '../core/context.js';
import type { WatchEvent, WatchState } from '../watch/session-state.js';
import { SessionWatch, type WatchResult } from './SessionWatch.js';
import { SubmissionProgress, type SubmissionProgressProps, type SubmissionResult } from './SubmissionProgress.js';

function inkOptions(io: CliIO) {
  return {
    stdout: io.stdout as NodeJS.WriteStream,
    stderr: io.stderr as NodeJS.WriteStream,
    stdin: io.stdin as NodeJS.ReadStream,
    exitOnCtrlC: true,
    patchConsole: false,
  };
}

/** Resolves with the result, or undefined when the user pressed Ctrl-C. */
export async function renderSessionWatch(
  io: CliIO,
  initial: WatchState,
  events: AsyncIterable<WatchEvent>,
): Promise<WatchResult | undefined> {
  const instance = render(<SessionWatch initial={initial} events={events} />, inkOptions(io));
  return (await instance.waitUntilExit()) as WatchResult | undefined;
}

export async function renderSubmissionProgress(
  io: CliIO,
  props: SubmissionProgressProps,
): Promise<SubmissionResult | undefined> {
  const instance = render(<SubmissionProgress {...props} />, inkOptions(io));
  return (await instance.waitUntilExit()) as SubmissionResult | undefined;
}
