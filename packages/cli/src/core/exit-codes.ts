// The documented exit codes; bin.ts is the only place that passes one to process.exit.
export const ExitCode = {
  ok: 0,
  error: 1,
  usage: 2,
  /** Not signed in, a refused token, or forbidden. */
  auth: 3,
  notFound: 4,
  /** `submit --wait`: the evaluation finished without accepting the kernel; `sweep start --wait`: the sweep's fast_p
   * is below a --min-fast1 / --min-fast-p minimum, or it stopped or failed. */
  notAccepted: 5,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];
