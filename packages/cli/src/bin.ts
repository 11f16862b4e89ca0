// The `kforge` executable: the only place that exits the process.
import { run } from './run.js';

const code = await run(process.argv.slice(2), {
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
});
// Let stdout drain (it may be a pipe) before exiting; lingering sockets or timers must not hold the process.
process.stdout.write('', () => process.exit(code));
