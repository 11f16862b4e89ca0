// Results as a table to download: one set of columns, written as CSV (RFC 4180) or as JSON records with the same keys.
import {
  attemptFigure,
  type GenerationAttempt,
  type LeaderboardEntry,
  type Sweep,
  unrankedReason,
} from '@kernelforge/sdk';

export type Cell = string | number | boolean | null;
export interface ExportTable {
  columns: readonly string[];
  rows: readonly (readonly Cell[])[];
}

/** A text cell a spreadsheet would run as a formula (=, +, -, @, tab, CR at its start) is kept as text. */
function csvCell(value: Cell): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(table: ExportTable): string {
  return `${[table.columns, ...table.rows].map((row) => row.map(csvCell).join(',')).join('\r\n')}\r\n`;
}

export function toJson(table: ExportTable): string {
  const records = table.rows.map((row) => Object.fromEntries(table.columns.map((c, i) => [c, row[i] ?? null])));
  return `${JSON.stringify(records, null, 2)}\n`;
}

const low = (i: readonly [number, number] | undefined) => i?.[0] ?? null;
const high = (i: readonly [number, number] | undefined) => i?.[1] ?? null;

/** A session's attempts, each with the one figure the page shows (none when its verdict is not accepted). */
export function attemptsTable(attempts: readonly GenerationAttempt[], bestId: string | undefined): ExportTable {
  return {
    columns: [
      'attempt',
      'status',
      'verdict',
      'language',
      'best',
      'time_ms',
      'time_low_ms',
      'time_high_ms',
      'speedup',
      'speedup_low',
      'speedup_high',
      'baseline_ms',
      'not_ranked_because',
      'created_at',
      'attempt_id',
    ],
    rows: attempts.map((a) => {
      const f = attemptFigure(a);
      return [
        a.attempt_number,
        a.status,
        a.evaluation_state?.verdict ?? null,
        a.language ?? null,
        a.id === bestId,
        f?.time_ms ?? null,
        low(f?.time_interval),
        high(f?.time_interval),
        f?.speedup ?? null,
        low(f?.speedup_interval),
        high(f?.speedup_interval),
        f?.baseline_ms ?? null,
        unrankedReason(a) ?? null,
        a.created_at,
        a.id,
      ];
    }),
  };
}

/** A leaderboard's entries as ranked. */
export function leaderboardTable(entries: readonly LeaderboardEntry[]): ExportTable {
  return {
    columns: [
      'rank',
      'user',
      'device',
      'language',
      'time_ms',
      'time_low_ms',
      'time_high_ms',
      'speedup',
      'speedup_low',
      'speedup_high',
      'runs',
      'within_noise_of_previous',
      'flagged_for_review',
      'submitted_at',
      'submission_id',
    ],
    rows: entries.map((e) => [
      e.rank,
      e.user.display_name,
      e.device,
      e.language ?? null,
      e.time_ms,
      low(e.time_interval),
      high(e.time_interval),
      e.speedup,
      low(e.speedup_interval),
      high(e.speedup_interval),
      e.runs,
      e.within_noise_of_previous,
      e.flagged_for_review,
      e.created_at,
      e.submission_id,
    ]),
  };
}

/** A sweep's problems with their ranked re-runs' results. */
export function sweepTable(sweep: Sweep): ExportTable {
  return {
    columns: [
      'problem',
      'status',
      'correct',
      'verdict',
      'speedup',
      'speedup_low',
      'speedup_high',
      'error',
      'session_id',
    ],
    rows: sweep.problems.map((p) => [
      p.problem_name,
      p.status,
      p.correct,
      p.verdict,
      p.speedup,
      low(p.speedup_interval),
      high(p.speedup_interval),
      p.error,
      p.session_id,
    ]),
  };
}
