// `kforge-server problems check DIR...`: loads every KernelBench-format file the way the server and the runner
// will (sandboxed inspection, sizes scaled to each device's budget) and prints, per file, whether it loads,
// its constants as written and as scaled, and its input shapes; or the error. Exit 1 when a file fails.
// Warnings (`warn  <file>: <reason>`) say when a reference's outputs make a weak test (near-constant, near zero);
// they do not change the exit code.
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadTorchProblems, runnerSettingsFromEnv, torchBudgets, torchFilesIn } from '@kernelforge/runner';
import type { TorchCase } from '@kernelforge/sdk';

export async function problemsCheckCommand(args: string[]): Promise<number> {
  const json = args.includes('--json');
  const dirs = args.filter((a) => a !== '--json');
  if (dirs.length === 0) {
    console.error('usage: kforge-server problems check DIR... [--json]');
    return 2;
  }
  const files = dirs.flatMap((d) => torchFilesIn(d, 'operator'));
  if (files.length === 0) {
    console.error(`no .py files in ${dirs.join(', ')} (nor in level1/ level2/ level3/ below them)`);
    return 1;
  }
  const cacheDir = join(tmpdir(), `kforge-torch-inspect-${process.getuid?.() ?? 'user'}`);
  mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
  const budgets = torchBudgets();
  const { python } = runnerSettingsFromEnv(process.env);
  const { problems, errors, warnings } = await loadTorchProblems(files, {
    taken: new Set(),
    cacheDir,
    budgets,
    python,
  });
  if (json) {
    console.log(
      JSON.stringify(
        {
          ok: problems.map((p) => ({ name: p.name, level: p.level, file: p.torch?.path, ...p.torch?.info })),
          errors,
          warnings,
        },
        null,
        2,
      ),
    );
    return errors.length > 0 ? 1 : 0;
  }
  const shapes = (c: TorchCase) =>
    c.inputs
      .map((v) => (v.type === 'tensor' ? `${v.dtype}[${(v.shape ?? []).join(', ')}]` : (v.repr ?? v.type)))
      .join(', ');
  for (const p of problems) {
    const info = p.torch?.info;
    if (!info) continue;
    console.log(`ok    level${p.level}/${p.torch?.file_name}  (${p.name})`);
    console.log(`      as written: ${JSON.stringify(info.constants)}`);
    for (const [kind, s] of Object.entries(info.sizes)) {
      const bench = s.benchmark[0];
      const mib = (b: number) => `${(b / 2 ** 20).toFixed(1)} MiB`;
      console.log(
        `      ${kind} (budget ${mib(s.budget_bytes)}${s.fits ? '' : ', DOES NOT FIT'}): ${JSON.stringify(s.constants)}  inputs ${bench ? shapes(bench) : '?'}  ${bench ? mib(bench.bytes) : ''}`,
      );
    }
    console.log(`      test sizes: ${(info.sizes.cpu?.test ?? []).map((c) => shapes(c)).join(' | ')}`);
    console.log(`      ${info.scaling_note}`);
  }
  for (const w of warnings) console.log(`warn  ${w.file}: ${w.warning}`);
  for (const e of errors) console.log(`FAIL  ${e.file}\n      ${e.error.split('\n').join('\n      ')}`);
  const warned = new Set(warnings.map((w) => w.file)).size;
  console.log(`${problems.length} loaded, ${errors.length} failed${warned > 0 ? `, ${warned} warned` : ''}`);
  return errors.length > 0 ? 1 : 0;
}
