// Every verdict of both harnesses is the judge's (src/evaluate/judge/facts.ts): each place a harness stops on a failure
// reports a fact, and the judge's table gives the fact's verdict. The harness still prints its own reading beside
// the fact, compared only; these tests read every such place in the sources and check that the two agree, so a
// harness and the table cannot drift apart unseen.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FACTS, type Fact, judgeFailure, verdictOf } from '../src/evaluate/judge/facts.js';

const runner = fileURLToPath(new URL('..', import.meta.url));
const cDir = join(runner, 'c');
const pyPackage = join(runner, 'src', 'backends', 'torch', 'py', 'kforge_torch');

/** The PyTorch harness's sources: every module of the kforge_torch package, one text. */
const pySource = (): string =>
  readdirSync(pyPackage)
    .filter((f) => f.endsWith('.py'))
    .sort()
    .map((f) => readFileSync(join(pyPackage, f), 'utf8'))
    .join('\n');

/** Every [fact, verdict] a C harness call site passes to kfh_fail / kfh_refail (ternaries give several). */
function cSites(): { file: string; pairs: [string, string][] }[] {
  const out: { file: string; pairs: [string, string][] }[] = [];
  for (const file of readdirSync(cDir).filter((f) => /\.(c|cu)$/.test(f))) {
    const src = readFileSync(join(cDir, file), 'utf8');
    for (const m of src.matchAll(/\bkfh_(?:re)?fail\(h,([\s\S]*?)\);/g)) {
      const strings = [...(m[1] as string).matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((s) => s[1] as string);
      // A literal message comes last: the facts, then the verdicts, in the same order.
      if (strings.length % 2) strings.pop();
      const half = strings.length / 2;
      out.push({
        file,
        pairs: strings.slice(0, half).map((f, i) => [f, strings[half + i] as string]),
      });
    }
  }
  return out;
}

/** Every [fact, verdict] of a `raise Verdict(...)` in the PyTorch harness. */
function pySites(): [string, string][] {
  const src = pySource();
  return [...src.matchAll(/raise Verdict\(\s*"(\w+)",\s*"(\w+)"/g)].map((m) => [m[1] as string, m[2] as string]);
}

describe('the facts the harnesses report', () => {
  it('every place the C harness stops on a failure reports a fact whose verdict (the judge’s) is the one it prints', () => {
    const sites = cSites();
    const all = readdirSync(cDir)
      .filter((f) => /\.(c|cu)$/.test(f))
      .map((f) => readFileSync(join(cDir, f), 'utf8'))
      .join('\n');
    // Every call (the definitions left out) was read: none passes its verdict any other way.
    expect(sites.length).toBe((all.match(/\bkfh_(?:re)?fail\(h,/g) ?? []).length);
    expect(sites.length).toBeGreaterThanOrEqual(16);
    expect(all).not.toMatch(/h->verdict = "(?!accepted)/);
    for (const s of sites) {
      expect(s.pairs.length, s.file).toBeGreaterThan(0);
      for (const [fact, verdict] of s.pairs) {
        expect(Object.keys(FACTS), `${s.file}: ${fact}`).toContain(fact);
        expect(verdictOf(fact as Fact), `${s.file}: ${fact}`).toBe(verdict);
      }
    }
  });

  it('every `raise Verdict` of the PyTorch harness reports a fact whose verdict (the judge’s) is the one it prints', () => {
    const sites = pySites();
    const src = pySource();
    expect(sites.length).toBe((src.match(/raise Verdict\(/g) ?? []).length);
    expect(sites.length).toBeGreaterThanOrEqual(28);
    for (const [fact, verdict] of sites) {
      expect(Object.keys(FACTS), fact).toContain(fact);
      expect(verdictOf(fact as Fact), fact).toBe(verdict);
    }
  });

  it('every fact of the table is one a harness or the driver reports', () => {
    const used = new Set<string>([
      ...cSites().flatMap((s) => s.pairs.map(([f]) => f)),
      ...pySites().map(([f]) => f),
      // The driver's own (backends/c-abi/report.ts, backends/torch/driver.ts): the harness ran past its limit, or gave no report.
      'harness_timeout',
      'no_report',
    ]);
    expect(Object.keys(FACTS).filter((f) => !used.has(f))).toEqual([]);
  });
});

describe('the judge on a failure', () => {
  it('decides the verdict from the fact', () => {
    expect(judgeFailure({ verdict: 'accepted' })).toBeUndefined();
    expect(judgeFailure({ verdict: 'incorrect', fact: 'wrote_input' })).toEqual({
      verdict: 'incorrect',
      fact: 'wrote_input',
    });
    expect(judgeFailure({ verdict: 'timeout', fact: 'slept' })?.verdict).toBe('timeout');
  });

  it('calls a harness verdict that is not its fact’s a runtime_error, loudly', () => {
    const drift = judgeFailure({ verdict: 'accepted', fact: 'outputs_differ' });
    expect(drift?.verdict).toBe('runtime_error');
    expect(drift?.mismatch).toBe(
      "the harness's verdict (accepted) is not the judge's (incorrect) for the fact outputs_differ",
    );
    expect(judgeFailure({ verdict: 'rejected', fact: 'no_such_fact' })?.mismatch).toMatch(
      /unknown fact \(no_such_fact\)/,
    );
    expect(judgeFailure({ verdict: 'rejected' })?.mismatch).toMatch(/no fact beside its verdict rejected/);
  });
});
