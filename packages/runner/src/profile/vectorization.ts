// Reads gcc's -fopt-info-vec-all report into one row per loop of the candidate's source.
import type { VectorizationLoop } from '@kernelforge/sdk';

/** The flag that makes gcc write the report; only the candidate's source is compiled in that step. */
export const VECTORIZATION_FLAG = '-fopt-info-vec-all';
// Bounds the report's size in a result (at most 100 loops of 4 reasons of 300 characters).
const MAX_LOOPS = 100;
const MAX_REASONS = 4;

const LINE = /^(?:[^:\n]*\/)?(source\.c(?:pp)?):(\d+):(\d+): (optimized|missed): (.*)$/;

export function parseVectorizationReport(text: string): VectorizationLoop[] {
  const loops = new Map<string, VectorizationLoop & { loop: boolean }>();
  for (const raw of text.split('\n')) {
    const m = LINE.exec(raw.trimEnd());
    if (!m) continue;
    const [, , line, column, kind, rest] = m as unknown as [string, string, string, string, string, string];
    const message = rest.trim();
    const key = `${line}:${column}`;
    let row = loops.get(key);
    if (!row) {
      row = { line: Number(line), column: Number(column), vectorized: false, widths: [], reasons: [], loop: false };
      loops.set(key, row);
    }
    const width = /loop vectorized using (\d+) byte vectors/.exec(message);
    if (kind === 'optimized' && width) {
      row.vectorized = true;
      row.loop = true;
      const w = Number(width[1]);
      if (!row.widths.includes(w)) row.widths.push(w);
      continue;
    }
    if (/couldn't vectorize loop/.test(message)) {
      row.loop = true;
      continue;
    }
    const why = /^not vectorized: (.*)$/.exec(message);
    const reason = (why ? why[1] : message)?.slice(0, 300) ?? '';
    if (why) row.loop = true;
    if (kind === 'optimized' || why) if (reason && !row.reasons.includes(reason)) row.reasons.push(reason);
  }
  return [...loops.values()]
    .filter((r) => r.loop)
    .map(({ loop: _loop, ...r }) => ({ ...r, reasons: r.reasons.slice(0, MAX_REASONS) }))
    .sort((a, b) => a.line - b.line || a.column - b.column)
    .slice(0, MAX_LOOPS);
}
