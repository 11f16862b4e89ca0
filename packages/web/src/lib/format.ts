// How numbers and dates read on screen.
import { formatFigureMs } from '@kernelforge/sdk';

/** A time, written as every face writes it (the sdk's formatFigureMs: the tuner's note and the CLI too). */
export function formatMs(ms: number | null | undefined): string {
  return formatFigureMs(ms);
}

export function formatSpeedup(speedup: number | null | undefined): string {
  if (speedup === null || speedup === undefined || !Number.isFinite(speedup)) return '—';
  return `${speedup.toFixed(speedup >= 100 ? 0 : 2)}×`;
}

export function formatNumber(value: number | null | undefined, digits = 1): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  return value.toFixed(digits);
}

export function formatPercent(fraction: number | null | undefined): string {
  if (fraction === null || fraction === undefined || !Number.isFinite(fraction)) return '—';
  return `${(fraction * 100).toFixed(1)}%`;
}

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}
