// ANSI colour, on only for a terminal that wants it (NO_COLOR and FORCE_COLOR are honoured).
export interface Style {
  readonly enabled: boolean;
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
}

const wrap = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`;

export function createStyle(enabled: boolean): Style {
  if (!enabled) {
    const plain = (text: string) => text;
    return { enabled, bold: plain, dim: plain, red: plain, green: plain, yellow: plain, cyan: plain };
  }
  return {
    enabled,
    bold: wrap(1, 22),
    dim: wrap(2, 22),
    red: wrap(31, 39),
    green: wrap(32, 39),
    yellow: wrap(33, 39),
    cyan: wrap(36, 39),
  };
}

const ANSI = /\u001b\[[0-9;]*m/g;

/** The width a string takes on screen, ignoring colour escapes. */
export function visibleWidth(text: string): number {
  return text.replace(ANSI, '').length;
}
