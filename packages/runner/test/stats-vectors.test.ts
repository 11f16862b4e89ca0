// The statistics the harnesses need mid-run (the stopping rules, the flagged-call rule, the wait rule) exist three
// times: in the judge (src/evaluate/judge.ts), in the C harness (c/harness_stats.c) and in the PyTorch harness
// (src/backends/torch/py/kforge_torch/stats.py). One file of vectors (test/vectors/stats.json) is run through all three here.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  converged,
  flaggedRejects,
  medianRse,
  quantile,
  relativeHalfWidth,
  speedupConverged,
  waitedTooLong,
  waitShare,
} from '../src/evaluate/judge.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const runner = join(here, '..');
const vectorsPath = join(here, 'vectors', 'stats.json');

type Num = number | 'inf';
interface Vectors {
  quantile: { sorted: number[]; q: number; expected: Num }[];
  median_rse: { xs: number[]; expected: Num }[];
  median_rel_half_width: { xs: number[]; expected: Num }[];
  converged: { xs_ms: number[]; min_samples: number; min_ms: number; target_rse: number; expected: boolean }[];
  speedup_converged: { ratios: number[]; half_width: number; expected: boolean }[];
  flagged_rejects: { flagged: number; calls: number; min: number; share: number; expected: boolean }[];
  waited: { cpu: number; wait: number; share: number; expected: boolean }[];
  wait_share: { cpu: number; wait: number; expected: number | null }[];
}
const V = JSON.parse(readFileSync(vectorsPath, 'utf8')) as Vectors;

/** Every vector as [kind, what it computes from, expected]: the order the C driver answers in. */
type Answer = Num | boolean | null;
function all(): { kind: string; line: string; expected: Answer; ts: Answer }[] {
  const list = (xs: readonly number[]) => `${xs.length} ${xs.join(' ')}`;
  const num = (x: number): Num => (Number.isFinite(x) ? x : 'inf');
  return [
    ...V.quantile.map((t) => ({
      kind: 'quantile',
      line: `${t.q} ${list(t.sorted)}`,
      expected: t.expected,
      ts: num(quantile(t.sorted, t.q)),
    })),
    ...V.median_rse.map((t) => ({
      kind: 'median_rse',
      line: list(t.xs),
      expected: t.expected,
      ts: num(medianRse(t.xs)),
    })),
    ...V.median_rel_half_width.map((t) => ({
      kind: 'median_rel_half_width',
      line: list(t.xs),
      expected: t.expected,
      ts: num(relativeHalfWidth(t.xs)),
    })),
    ...V.converged.map((t) => ({
      kind: 'converged',
      line: `${t.min_samples} ${t.min_ms} ${t.target_rse} ${list(t.xs_ms)}`,
      expected: t.expected,
      ts: converged(t.xs_ms, { minSamples: t.min_samples, minMs: t.min_ms, targetRse: t.target_rse }),
    })),
    ...V.speedup_converged.map((t) => ({
      kind: 'speedup_converged',
      line: `${t.half_width} ${list(t.ratios)}`,
      expected: t.expected,
      ts: speedupConverged(t.ratios, t.half_width),
    })),
    ...V.flagged_rejects.map((t) => ({
      kind: 'flagged_rejects',
      line: `${t.min} ${t.share} ${t.flagged} ${t.calls}`,
      expected: t.expected,
      ts: flaggedRejects(t.flagged, t.calls, t.min, t.share),
    })),
    ...V.waited.map((t) => ({
      kind: 'waited',
      line: `${t.share} ${t.cpu} ${t.wait}`,
      expected: t.expected,
      ts: waitedTooLong(t.cpu, t.wait, t.share),
    })),
    ...V.wait_share.map((t) => ({
      kind: 'wait_share',
      line: `${t.cpu} ${t.wait}`,
      expected: t.expected,
      ts: waitShare(t.cpu, t.wait),
    })),
  ];
}

function same(got: Answer, want: Answer): boolean {
  if (typeof want !== 'number' || typeof got !== 'number') return got === want;
  return got === want || Math.abs(got - want) <= 1e-12 * Math.max(Math.abs(got), Math.abs(want));
}

const vectors = all();
const dir = mkdtempSync(join(tmpdir(), 'kforge-stats-vectors-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('shared statistics vectors (test/vectors/stats.json)', () => {
  it('cover every statistic', () => {
    for (const k of Object.keys(V).filter((k) => k !== 'about'))
      expect(vectors.filter((v) => v.kind === k).length, k).toBeGreaterThan(0);
  });

  it('the judge (TypeScript) gives every expected answer', () => {
    const bad = vectors.filter((v) => !same(v.ts, v.expected)).map((v) => `${v.kind} ${v.line}: ${v.ts}`);
    expect(bad).toEqual([]);
  });

  it('the C harness (c/harness_stats.c) gives every expected answer', () => {
    const bin = join(dir, 'stats_vectors');
    execFileSync('cc', [
      '-O2',
      '-std=gnu11',
      '-Wall',
      '-Werror',
      `-I${join(runner, 'c')}`,
      join(here, 'vectors', 'stats_vectors.c'),
      join(runner, 'c', 'harness_stats.c'),
      '-o',
      bin,
      '-lm',
    ]);
    const input = `${vectors.map((v) => `${v.kind} ${v.line}`).join('\n')}\n`;
    const out = execFileSync(bin, { input, encoding: 'utf8' }).trim().split('\n');
    expect(out.length).toBe(vectors.length);
    const parse = (s: string): Answer =>
      s === 'inf' ? 'inf' : s === 'null' ? null : s === '0' || s === '1' ? s === '1' : Number(s);
    const bad = vectors
      .map((v, i) => {
        const raw = out[i] ?? '';
        // Booleans come back as 0/1, numbers as numbers (a 0 or 1 that is a number compares as one).
        const got = typeof v.expected === 'number' ? (raw === 'inf' ? 'inf' : Number(raw)) : parse(raw);
        return same(got, v.expected) ? null : `${v.kind} ${v.line}: ${raw}`;
      })
      .filter((x) => x !== null);
    expect(bad).toEqual([]);
  });

  it('the PyTorch harness (kforge_torch/stats.py) gives every expected answer', () => {
    const r = spawnSync(
      'python3',
      [
        join(here, 'vectors', 'stats_vectors.py'),
        join(runner, 'src', 'backends', 'torch', 'py', 'kforge_torch', 'stats.py'),
        vectorsPath,
      ],
      { encoding: 'utf8' },
    );
    expect(r.stdout + r.stderr).toContain(`${vectors.length} vectors, 0 disagreements`);
    expect(r.status).toBe(0);
  });
});
