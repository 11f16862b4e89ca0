// How numbers, times and states read in tables and Ink screens.
import type { Style } from './style.js';

/** Milliseconds with units a person reads at a glance: 0.0123 ms -> `12.3 µs`. */
export function formatMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '-';
  if (ms < 1) return `${(ms * 1000).toPrecision(3)} µs`;
  if (ms < 1000) return `${ms.toPrecision(3)} ms`;
  return `${(ms / 1000).toPrecision(3)} s`;
}

/** A time with its 95% interval where the runner measured one: `2.01 ms [1.98-2.05]`. */
export function formatMsInterval(ms: number | null | undefined, interval?: readonly [number, number]): string {
  const t = formatMs(ms);
  if (!interval || t === '-') return t;
  const unit = t.slice(t.indexOf(' ') + 1);
  const scale = unit === 'µs' ? 1000 : unit === 's' ? 1 / 1000 : 1;
  return `${t} [${(interval[0] * scale).toPrecision(3)}-${(interval[1] * scale).toPrecision(3)}]`;
}

export function formatSpeedup(
  speedup: number | null | undefined,
  interval?: readonly [number, number] | undefined,
): string {
  if (speedup === null || speedup === undefined || !Number.isFinite(speedup)) return '-';
  // With its 95% interval where the runner measured one: `1.02x [0.98-1.05]`.
  return interval
    ? `${speedup.toFixed(2)}x [${interval[0].toFixed(2)}-${interval[1].toFixed(2)}]`
    : `${speedup.toFixed(2)}x`;
}

/** `2026-11-21 09:30` in UTC: compact and the same on every machine. */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '-';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toISOString().slice(0, 16).replace('T', ' ');
}

export function formatDuration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  return `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, '0')}s`;
}

export function colorStatus(style: Style, status: string): string {
  switch (status) {
    case 'completed':
    case 'accepted':
      return style.green(status);
    case 'failed':
    case 'stopped':
      return style.red(status);
    case 'generating':
    case 'evaluating':
    case 'active':
      return style.cyan(status);
    default:
      return style.dim(status);
  }
}

export function colorVerdict(style: Style, verdict: string | null | undefined): string {
  if (!verdict) return style.dim('-');
  return verdict === 'accepted' ? style.green(verdict) : style.red(verdict);
}

/** `[`text`]` shortened to `max` characters with an ellipsis. */
export function truncate(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, Math.max(0, max - 1))}…`;
}

/** Colours the text of a padded table cell, leaving its padding alone. */
export function paintCell(padded: string, paint: (text: string) => string): string {
  const text = padded.trim();
  return text ? padded.replace(text, paint(text)) : padded;
}
