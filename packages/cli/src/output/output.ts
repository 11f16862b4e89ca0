// Where a command writes: data to stdout (JSON, tables or plain lines), everything else to stderr.
import { createStyle, type Style } from './style.js';
import { type Column, renderTable } from './table.js';

export interface WritableLike {
  write(chunk: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

/** json: only JSON on stdout; tty: tables, colour and Ink screens; plain: lines without colour or Ink. */
export type OutputMode = 'json' | 'tty' | 'plain';

export function outputMode(json: boolean, stdout: WritableLike, env: Record<string, string | undefined>): OutputMode {
  if (json) return 'json';
  if (!stdout.isTTY) return 'plain';
  if (env.CI && env.CI !== '0' && env.CI.toLowerCase() !== 'false') return 'plain';
  return 'tty';
}

export class Output {
  readonly style: Style;
  /** Colour for stderr messages (stderr may be a terminal while stdout is a pipe). */
  readonly errStyle: Style;

  constructor(
    readonly mode: OutputMode,
    readonly stdout: WritableLike,
    readonly stderr: WritableLike,
    env: Record<string, string | undefined>,
  ) {
    const noColor = env.NO_COLOR !== undefined && env.NO_COLOR !== '';
    const force = env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== '';
    this.style = createStyle(force || (mode === 'tty' && !noColor));
    this.errStyle = createStyle(force || (Boolean(stderr.isTTY) && mode !== 'json' && !noColor && !env.CI));
  }

  get json(): boolean {
    return this.mode === 'json';
  }

  /** Ink screens only on an interactive terminal. */
  get interactive(): boolean {
    return this.mode === 'tty';
  }

  /** Prints a value as JSON on stdout (the only thing `--json` prints). */
  printJson(value: unknown): void {
    this.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
  }

  /** A line of data on stdout. */
  line(text = ''): void {
    this.stdout.write(`${text}\n`);
  }

  table<Row>(rows: readonly Row[], columns: readonly Column<Row>[]): void {
    this.line(renderTable(rows, columns, this.style));
  }

  /** Aligned `label  value` lines for one item. */
  fields(pairs: ReadonlyArray<readonly [string, string]>): void {
    const width = Math.max(...pairs.map(([label]) => label.length)) + 1;
    for (const [label, value] of pairs) this.line(`${this.style.dim(`${label}:`.padEnd(width))} ${value}`);
  }

  /** A message for people on stderr (never mixed into the data). */
  info(text: string): void {
    this.stderr.write(`${text}\n`);
  }

  success(text: string): void {
    this.stderr.write(`${this.errStyle.green('✓')} ${text}\n`);
  }

  warn(text: string): void {
    this.stderr.write(`${this.errStyle.yellow('Warning:')} ${text}\n`);
  }

  error(message: string, hint?: string): void {
    this.stderr.write(`${this.errStyle.red('Error:')} ${message}\n`);
    if (hint) this.stderr.write(`${hint}\n`);
  }
}
