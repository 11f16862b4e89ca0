// Issue 20's rerun spread: N ranked reruns of the same kernel (by default the problem's own reference submitted as
// the candidate: identical code, which must read 1.00x), once on the machine as it is and once beside a busy
// neighbour on one core (a busy loop outside the sandbox). Prints each run's time, speedup and 95% interval, then
// the spreads ((max - min) / median) per condition. Figures, never assertions.
// A pytorch problem (e.g. 101_HardSigmoid, from problems/pytorch) reruns its reference renamed `ModelNew`.
// Run: node_modules/.bin/tsx bench/rerun-spread.mjs [problem=19_ReLU] [runs=5] [--short] [--benchmark]
//   --benchmark: benchmark mode (no re-timing) instead of ranked
//   --source FILE: rerun this candidate instead of the reference (e.g. the tuner's start point), same conditions
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { QUICK_TIMING } from '../packages/runner/src/harness/plan.ts';
import {
  discoverDevices,
  evaluate,
  loadCatalogue,
  loadTorchProblems,
  torchFilesIn,
} from '../packages/runner/src/index.ts';

const root = new URL('..', import.meta.url).pathname;
const sourceAt = process.argv.indexOf('--source');
const sourceFile = sourceAt > 0 ? process.argv[sourceAt + 1] : undefined;
const args = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && all[i - 1] !== '--source');
const short = process.argv.includes('--short');
const name = args[0] ?? '19_ReLU';
const runs = Number(args[1] ?? (short ? 2 : 5));
const workDir = join(tmpdir(), 'kforge-rerun-spread');
mkdirSync(workDir, { recursive: true });
const mode = process.argv.includes('--benchmark') ? 'benchmark' : 'ranked';
const problems = loadCatalogue(join(root, 'problems'));
const device = discoverDevices({ workDir })[0];
if (!problems.has(name)) {
  // Not a C problem: the pytorch problems, inspected as the server does at start-up.
  const files = torchFilesIn(join(root, 'problems', 'pytorch'), 'builtin');
  const loaded = await loadTorchProblems(files, { taken: new Set(problems.keys()), cacheDir: join(workDir, 'torch') });
  for (const p of loaded.problems) problems.set(p.name, p);
}
const problem = problems.get(name);
if (!problem) throw new Error(`no problem ${name}`);
const torch = problem.kind === 'pytorch';
// The reference, renamed to the candidate's entry point: identical code and flags.
const source = sourceFile
  ? readFileSync(sourceFile, 'utf8')
  : torch
    ? (problem.torch?.source ?? '').replace(/\bModel\b/g, 'ModelNew')
    : readFileSync(join(root, 'problems', name, 'reference.c'), 'utf8').replace(/\breference\(/, 'solution(');

const spread = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return (s[s.length - 1] - s[0]) / s[Math.floor(s.length / 2)];
};

async function condition(label) {
  const times = [];
  const speedups = [];
  for (let i = 0; i < runs; i++) {
    const state = await evaluate(
      {
        kind: 'submission',
        target_id: `spread-${label}-${i}`,
        mode,
        ...(mode === 'ranked' ? { secret_seed: 'rerun-spread' } : {}),
        problem_name: name,
        device: device.id,
        language: torch ? 'pytorch' : 'c',
        source,
      },
      { problems, device, workDir, ...(short ? { timing: { ...QUICK_TIMING, maxMs: 1000 } } : {}) },
    );
    const r = state.benchmarking_result;
    if (!r) {
      console.log(`${label} #${i + 1}: ${state.verdict} ${state.message}`);
      continue;
    }
    times.push(r.optimized_time);
    speedups.push(r.speedup);
    const ci = r.speedup_interval ? `[${r.speedup_interval.map((x) => x.toFixed(3)).join(', ')}]` : '[no interval]';
    const samples = r.cases.map((c) => c.optimized.samples).join('+');
    const flags = r.review_reasons.length ? ` flagged: ${r.review_reasons.join('; ')}` : '';
    const l = r.load;
    const waits =
      l?.wait_share !== undefined
        ? `, waiting ${(l.wait_share * 100).toFixed(0)}%/${((l.baseline_wait_share ?? 0) * 100).toFixed(0)}% (candidate/baseline)${l.retaken_pairs !== undefined ? `, ${l.retaken_pairs} pairs retaken, ${l.waited_pairs_kept ?? 0} kept waited` : ''}`
        : '';
    console.log(
      `${label} #${i + 1}: ${r.optimized_time.toFixed(3)} ms, ${r.speedup.toFixed(3)}x ${ci}, ${samples} samples, timed ${r.load?.timed_runs ?? 1}x${l?.run_speedups ? ` (runs ${l.run_speedups.map((x) => x.toFixed(3)).join(', ')})` : ''}, outside ${r.load?.outside_cores ?? '?'} cores${r.load?.noisy ? ' (noisy)' : ''}, budget ${l?.budget_cores ?? '?'} (cpu ${l?.budget_cpus ?? '?'})${waits}, load ${loadavg()[0].toFixed(1)}${flags}`,
    );
  }
  if (times.length > 1)
    console.log(
      `${label}: time spread ${(spread(times) * 100).toFixed(1)}%, speedup spread ${(spread(speedups) * 100).toFixed(1)}%, speedups ${speedups.map((s) => s.toFixed(3)).join(' ')}`,
    );
}

console.log(
  `${name}, ${runs} ${mode} reruns per condition, ${sourceFile ? `candidate ${sourceFile}` : 'identical code'}, device ${device.id} (${device.name})`,
);
await condition('as is');
const burner = spawn('sh', ['-c', 'while :; do :; done'], { stdio: 'ignore' });
try {
  await new Promise((r) => setTimeout(r, 300));
  await condition('one core busy');
} finally {
  burner.kill('SIGKILL');
}
