// The command tree. Only commander and the command definitions load here, so `kforge --help` stays fast.
import { Command } from 'commander';
import { attemptsCommand } from './commands/attempts/index.js';
import { loginCommand } from './commands/auth/login.js';
import { logoutCommand } from './commands/auth/logout.js';
import { whoamiCommand } from './commands/auth/whoami.js';
import { devicesCommand } from './commands/devices/list.js';
import { leaderboardCommand } from './commands/leaderboard/show.js';
import { problemsCommand } from './commands/problems/index.js';
import { instructCommand } from './commands/sessions/instruct.js';
import { sessionsCommand } from './commands/sessions/index.js';
import { submissionsCommand } from './commands/submissions/list.js';
import { submitCommand, testCommand } from './commands/submissions/submit.js';
import { sweepCommand } from './commands/sweep/index.js';
import { tokensCommand } from './commands/tokens/index.js';
import type { Runtime } from './core/command.js';
import { VERSION } from './core/version.js';

const ROOT_HELP = `
Exit codes:
  0  ok
  1  error (the server failed or could not be reached, a timeout, ...)
  2  usage (a wrong command, option or argument)
  3  not signed in, the token was refused, or forbidden
  4  not found
  5  the evaluation did not accept the kernel (submit --wait, test); a sweep's fast_p is below
     --min-fast1 / --min-fast-p, or it stopped or failed (sweep start --wait)

Environment:
  KFORGE_TOKEN       an API token; overrides the stored one (for CI)
  KFORGE_API_URL     the server, e.g. https://kforge.example.com (default http://localhost:8000)
  KFORGE_PROFILE     the profile to use (like --profile)
  KFORGE_TELEMETRY   0 turns usage events off (so does DO_NOT_TRACK=1)
  HTTPS_PROXY, HTTP_PROXY, NO_PROXY   proxy settings
  CI, NO_COLOR       plain lines without Ink or colour

Examples:
  $ kforge login                                  # paste an API token
  $ kforge sessions start 19_ReLU --watch         # generate kernels, follow live
  $ kforge attempts show SESSION --best > relu.c  # the best source
  $ kforge submit 19_ReLU relu.c --wait           # ranked evaluation, exit 5 unless accepted
  $ kforge test 19_ReLU relu.c                    # run tests: checked and timed, never ranked
  $ kforge leaderboard 19_ReLU --json             # the ranking as JSON
  $ kforge sweep start --set c-abi --wait         # score an agent by fast_p`;

export function buildProgram(runtime: Runtime): Command {
  const program = new Command('kforge')
    .description('Kernelforge from the terminal: generate, benchmark and rank compute kernels')
    .version(VERSION, '-V, --version', 'print the version')
    .option('--profile <name>', 'use a stored profile (default: "default", or KFORGE_PROFILE)')
    .option('--api-url <url>', 'the Kernelforge server (overrides KFORGE_API_URL and the profile)')
    .addHelpText('after', ROOT_HELP)
    .addCommand(loginCommand(runtime))
    .addCommand(logoutCommand(runtime))
    .addCommand(whoamiCommand(runtime))
    .addCommand(problemsCommand(runtime))
    .addCommand(devicesCommand(runtime))
    .addCommand(sessionsCommand(runtime))
    .addCommand(instructCommand(runtime))
    .addCommand(attemptsCommand(runtime))
    .addCommand(submitCommand(runtime))
    .addCommand(testCommand(runtime))
    .addCommand(submissionsCommand(runtime))
    .addCommand(leaderboardCommand(runtime))
    .addCommand(sweepCommand(runtime))
    .addCommand(tokensCommand(runtime));
  configureTree(program, runtime);
  return program;
}

/** Settings that commander does not pass to commands added with addCommand. */
function configureTree(command: Command, runtime: Runtime): void {
  const { io } = runtime;
  command
    .exitOverride()
    .helpOption('-h, --help', 'show help for this command')
    .showSuggestionAfterError(true)
    .configureHelp({ showGlobalOptions: true, sortSubcommands: false })
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      getOutHelpWidth: () => io.stdout.columns ?? 80,
      getErrHelpWidth: () => io.stderr.columns ?? 80,
      outputError: (text, write) => write(text.replace(/^error: /, 'Error: ')),
    });
  if (command.commands.length > 0 && command.parent) {
    command.addHelpText(
      'after',
      `\nRun \`kforge ${command.name()} <command> --help\` for a command's options and examples.`,
    );
  }
  for (const child of command.commands) configureTree(child, runtime);
}
