// One test kernel per cheat (test/cheats/*.c), each with its verdict; the runner stays healthy after each.
import { mkdirSync, readFileSync, readlinkSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { execFileSync, spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUICK_TIMING } from '../src/harness/plan.js';
import { evaluate } from '../src/index.js';
import { catalogue, cpuDevice, fixture, payload, run, workDir } from './helpers.js';

const secretDir = join(workDir, 'fake-data-dir');
const secret = join(secretDir, 'secret.key');
const dataFile = join(secretDir, 'kforge.db');
const otherSource = join(workDir, 'jobs', 'another-candidate', 'source.c');
let port = 0;
const server = createServer((s) => s.end('hello\n'));

beforeAll(async () => {
  mkdirSync(secretDir, { recursive: true });
  writeFileSync(secret, 'TOP-SECRET-KEY');
  writeFileSync(dataFile, 'DATABASE-CONTENT');
  mkdirSync(join(workDir, 'jobs', 'another-candidate'), { recursive: true });
  writeFileSync(otherSource, 'OTHER-CANDIDATE-SOURCE');
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  port = (server.address() as { port: number }).port;
});
afterAll(() => server.close());

const withDefines = (file: string) =>
  `#define KF_SECRET "${secret}"\n#define KF_DATA_FILE "${dataFile}"\n#define KF_OTHER_SOURCE "${otherSource}"\n#define KF_PORT ${port}\n${fixture(`./cheats/${file}`)}`;

/** "0-2,5" -> [0, 1, 2, 5]. */
const expandCpus = (list: string) =>
  list.split(',').flatMap((part) => {
    const [a, b] = part.split('-').map(Number) as [number, number | undefined];
    return Array.from({ length: (b ?? a) - a + 1 }, (_, i) => a + i);
  });

const good = () => fixture('./candidates/relu_omp.c');

async function expectHealthy() {
  const state = await run('19_ReLU', good());
  expect(state.verdict, state.message).toBe('accepted');
}

/** Sandboxes of this test's runner: their bwrap command lines name our work dir (other runners on the machine have their own). */
function ourSandboxes(): string[] {
  const out = execFileSync('ps', ['-e', '-o', 'pid=,args='], { encoding: 'utf8' });
  return out.split('\n').filter((l) => l.includes('bwrap') && l.includes(workDir));
}

describe('cheats get their verdicts', () => {
  const cases: Array<[string, string[], RegExp?]> = [
    ['no_output.c', ['incorrect'], /NaN|nan/],
    ['test_sizes_only.c', ['incorrect'], /n8M/],
    ['cache_by_pointer.c', ['incorrect']],
    ['cache_by_size.c', ['incorrect']],
    ['cache_by_pointer_timed.c', ['incorrect'], /n8M/],
    ['mutate_inputs.c', ['incorrect'], /input x was modified/],
    ['sleep_then_work.c', ['rejected'], /still running after solution\(\) returned/],
    // Rejected: the stub writes its own reply with a raw system call, which the interposed write() cannot swallow,
    // so a second reply arrives (or the forged one lacks its command's nonce). Kept: accepted only at the time of
    // the whole work, never faster (checked below), should a later stub let the forged reply through again.
    [
      'early_reply.c',
      ['rejected', 'accepted'],
      /reply pipe|after solution\(\) returned|outside the timed call|clock|slower|faster|noise/,
    ],
    // A forged reply with the stub's own reply hidden behind /dev/null: the nonce gives it away.
    ['hide_reply.c', ['rejected'], /wrote to its reply pipe/],
    // Bytes on the reply pipe that are not the stub's answer to the command sent: the protocol is broken on purpose.
    ['garbage_reply.c', ['rejected'], /wrote to its reply pipe/],
    ['include_secret.c', ['compile_error']],
  ];
  for (const [file, verdicts, message] of cases) {
    it(`${file} -> ${verdicts.join(' or ')}`, async () => {
      const state = await run('19_ReLU', withDefines(file));
      expect(verdicts, state.message).toContain(state.verdict);
      if (message) expect(state.message).toMatch(message);
      // Accepted only at an honest time: a forged early reply that stopped the clock would read hundreds of times
      // faster than the reference (a few microseconds against milliseconds).
      if (file === 'early_reply.c' && state.verdict === 'accepted')
        expect(state.benchmarking_result!.speedup, state.message).toBeLessThan(10);
      if (file === 'include_secret.c') expect(state.compile?.log).not.toContain('TOP-SECRET');
    }, 120_000);
  }

  it('fake_clock.c -> rejected; under heavy outside load flagged for review instead (its time is the outside one)', async () => {
    // Enough samples for the clock check (at least 5 with calls over 1 ms) on a busy machine.
    const state = await run(
      '19_ReLU',
      withDefines('fake_clock.c'),
      {},
      { ...QUICK_TIMING, minSamples: 12, maxMs: 10_000 },
    );
    if (state.benchmarking_result?.load?.noisy) {
      expect(state.verdict, state.message).toBe('accepted');
      expect(state.benchmarking_result.review_reasons.join('\n')).toMatch(/own clock disagrees/);
    } else {
      expect(state.verdict, state.message).toBe('rejected');
      expect(state.message).toMatch(/clock/);
    }
  }, 120_000);

  it('work handed to a detached thread never shortens the time: rejected or incorrect, or timed to its end', async () => {
    // The call returns at once and a detached thread does all the work. The harness sees it still running after
    // the reply (rejected), or the outputs unwritten when checked (incorrect). On a loaded machine the harness may
    // read the reply only after the thread has finished: nothing is left to see, and the time then covers the whole
    // of the work, so it is accepted at an honest time, never a faster one (seen in CI beside the product lane).
    const twin = await run('19_ReLU', `#define KF_HONEST_TWIN 1\n${withDefines('detached_thread.c')}`);
    expect(twin.verdict, twin.message).toBe('accepted');
    const cheat = await run('19_ReLU', withDefines('detached_thread.c'));
    expect(['rejected', 'incorrect', 'nondeterministic', 'accepted'], cheat.message).toContain(cheat.verdict);
    if (cheat.verdict === 'accepted')
      expect(cheat.benchmarking_result!.optimized_time!).toBeGreaterThan(
        0.8 * twin.benchmarking_result!.optimized_time!,
      );
  }, 120_000);

  it('a forged early reply never shortens the time: rejected, or timed to the end of the real work', async () => {
    const twin = await run('19_ReLU', `#define KF_HONEST_TWIN 1\n${withDefines('early_reply_tail.c')}`);
    expect(twin.verdict, twin.message).toBe('accepted');
    const cheat = await run('19_ReLU', withDefines('early_reply_tail.c'));
    expect(['rejected', 'accepted'], cheat.message).toContain(cheat.verdict);
    if (cheat.verdict === 'rejected')
      expect(cheat.message).toMatch(/reply pipe|after solution\(\) returned|outside the timed call|clock disagrees/);
    // Rejected: work seen after the reply, or (the reply read late, so the outside time covers all the work) its
    // own clock, which stops at the forged reply, disagrees with the outside one.
    // Three quarters of the work comes after the forged reply: had it stopped the clock, the time would be
    // under half the twin's. Accepted only when the harness read the reply after the work was done.
    else
      expect(cheat.benchmarking_result!.optimized_time!).toBeGreaterThan(
        0.8 * twin.benchmarking_result!.optimized_time!,
      );
  }, 120_000);

  it('work after return on a few calls counts those calls as the slowest; on every call it is rejected', async () => {
    // A few flagged calls are how an honest kernel looks on a loaded machine (a running thread's cpu time is
    // read up to a scheduler tick late): they never count, and never reject. On every call: rejected.
    let harness: Record<string, number> = {};
    // 20 samples: its two spinning calls, and an honest call or two flagged on a loaded machine, stay a few of
    // many (with quick's 5, two spins and two load-flagged calls were 4 of 5: rejected beside the other lane).
    const some = await evaluate(payload('19_ReLU', withDefines('work_after_return_some.c')), {
      problems: catalogue,
      device: cpuDevice(),
      workDir,
      timing: { ...QUICK_TIMING, minSamples: 20, maxMs: 5_000 },
      onProfile: (p) => {
        harness = p.harness;
      },
    });
    expect(some.verdict, some.message).toBe('accepted');
    // Its two helper spins are flagged (unless the machine was so busy that the harness read the reply only
    // after the spin: the outside time then includes it, and nothing is hidden), and on a loaded machine an
    // honest call or two as well (a running thread's cpu time is read up to a tick late); never enough to reject.
    // (flagged_calls counts every flagged call, correctness ones too; timing_flagged those of the timed phase.)
    const flagged = harness.timing_flagged ?? 0;
    // At least one clean sample; not minSamples: beside a busy neighbour the time budget can end sampling first
    // (3 clean samples and its flagged calls, seen with the evaluating lanes side by side at load 4).
    expect(harness.samples).toBeGreaterThanOrEqual(1);
    // Each flagged timing call counts as the slowest clean sample: none of them can make the time faster.
    const bench = some.benchmarking_result!.cases[0]!;
    expect(bench.optimized.samples).toBe((harness.samples ?? 0) + flagged);
    const every = await run('19_ReLU', `#define KF_EVERY_CALL 1\n${withDefines('work_after_return_some.c')}`);
    if (every.verdict === 'accepted') {
      // Only when the machine was so busy that the harness read every reply after the spin had run (ci23, beside
      // the other lane: "4.53x slower"): then each outside time holds its 3 ms of spin, nothing was hidden, and
      // the figure is no faster than the work done.
      expect(every.benchmarking_result!.optimized_time!, every.message).toBeGreaterThanOrEqual(3);
      expect(every.message).toMatch(/slower/);
    } else {
      expect(every.verdict, every.message).toBe('rejected');
      // Rejected for the work after return, or (when a spin overlapped the next call's wake-up) for the clock the
      // spins made disagree: either way not accepted.
      expect(every.message).toMatch(/solution\(\) returned.*\(\d+ of \d+ calls|own clock disagrees/);
    }
  }, 120_000);

  it('the candidate never shares memory with the baseline: the two workers map separate data', async () => {
    // Until 2026-11-27 one memfd was mapped into both workers: a candidate's helper thread copied the baseline's
    // outputs after its call and handed them to its own next call on the same inputs (issue 31, ranked first at
    // 5.98x). While both workers of an evaluation are alive, their data (fd 5) must be two different files.
    const seen: Array<Array<[number, number]>> = [];
    let done = false;
    const watch = (async () => {
      while (!done) {
        const workers: Array<[number, number]> = [];
        for (const line of ourSandboxes()) {
          const bwrap = Number(line.trim().split(/\s+/)[0]);
          let children: number[] = [];
          try {
            children = readFileSync(`/proc/${bwrap}/task/${bwrap}/children`, 'utf8').trim().split(/\s+/).map(Number);
          } catch {}
          for (const pid of children.filter((p) => p > 0)) {
            try {
              if (readlinkSync(`/proc/${pid}/fd/5`).startsWith('/memfd:kf-data'))
                workers.push([pid, statSync(`/proc/${pid}/fd/5`).ino]);
            } catch {}
          }
        }
        if (workers.length >= 2) seen.push(workers);
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const state = await run('19_ReLU', good(), {}, { ...QUICK_TIMING, minSamples: 12 });
    done = true;
    await watch;
    expect(state.verdict, state.message).toBe('accepted');
    expect(seen.length, 'both workers were never seen alive at once').toBeGreaterThan(0);
    for (const workers of seen) expect(new Set(workers.map(([, ino]) => ino)).size).toBe(workers.length);
  }, 120_000);

  it('a little work between calls by a thread that wakes for it is rejected at once, never forgiven as a late stretch', async () => {
    // 0.3 ms between calls of about 8 ms, on one large call in five: by size it could pass for a call's own last
    // stretch read late (forgiven as a flagged call), and so few flagged calls would be accepted. The woken thread
    // was given a cpu, which a late stretch never needs: rejected at once, not by the count of flagged calls.
    const state = await run('19_ReLU', withDefines('wake_between_short.c'), {}, { ...QUICK_TIMING, minSamples: 20 });
    expect(state.verdict, state.message).toBe('rejected');
    expect(state.message).toMatch(/between calls/);
    expect(state.message).not.toMatch(/\(\d+ of \d+ calls/);
  }, 120_000);

  it('work finished after the reply by threads that exit before the harness looks is seen: rejected', async () => {
    // 40% in the call, the rest by a relay of short-lived threads started 1 ms after the reply. Their cpu is kept in
    // the process's total after they exit (issue 31: summed over live threads, it vanished; accepted at about 2x).
    const twin = await run('19_ReLU', `#define KF_HONEST_TWIN 1\n${withDefines('relay_after_reply.c')}`);
    expect(twin.verdict, twin.message).toBe('accepted');
    const cheat = await run('19_ReLU', withDefines('relay_after_reply.c'));
    expect(['rejected', 'incorrect'], cheat.message).toContain(cheat.verdict);
    if (cheat.verdict === 'rejected')
      expect(cheat.message).toMatch(
        /after solution\(\) returned|between calls|after the last call|outside the timed call/,
      );
  }, 120_000);

  // The tests that wait out a limit (10 s of sleeps, the 10 s start limit, a call's deadline, memory faulted in until
  // RLIMIT_AS) run side by side: each waits on its own clock, none needs the machine to itself, and one after another
  // they were ~37 s of waiting.
  it.concurrent('memory_hog.c -> runtime_error or timeout', async () => {
    // Touching ~4 GiB before RLIMIT_AS stops it: on a quiet machine that takes seconds and ends in runtime_error;
    // under a load of 9 on 2 cores it once ran past even the 30 s deadline (timeout). Either way it is stopped, not
    // accepted, and the machine survives (the runner-health test below). Page faults take several seconds on a busy
    // machine, so it gets a longer call deadline than the quick rules' 5 s (it is about memory, not time).
    const state = await run('19_ReLU', withDefines('memory_hog.c'), {}, { ...QUICK_TIMING, callTimeoutMs: 30_000 });
    expect(['runtime_error', 'timeout'], state.message).toContain(state.verdict);
  }, 120_000);

  it.concurrent('a kernel that sleeps in its calls is stopped once they have slept 10 s in all, whatever the deadline', async () => {
    // About 34 sleeps of 300 ms: seconds, not the minutes its calls' deadlines allow (before: accepted, slowly).
    const state = await run('19_ReLU', withDefines('sleep_in_call.c'));
    expect(state.verdict, state.message).toBe('timeout');
    expect(state.message).toMatch(/solution\(\) slept: \d+ ms/);
  }, 120_000);

  it.concurrent('calls that sleep past the limit are a timeout whether it is seen inside a call or after its reply', async () => {
    // 200 ms sleeps end before the harness's 250 ms look inside a call: the limit is crossed at a look after a
    // reply. That verdict (timeout, fact `slept`) was overwritten as the call's failure: runtime_error, seen in CI.
    const state = await run('19_ReLU', `#define KF_SLEEP_MS 200\n${withDefines('sleep_in_call.c')}`);
    expect(state.verdict, state.message).toBe('timeout');
    expect(state.message).toMatch(/solution\(\) slept: \d+ ms/);
  }, 120_000);

  it.concurrent('a static constructor that sleeps ends at the start limit, not after holding the runner 30 s per start', async () => {
    // Before: accepted, each of its worker's starts held for the 25 s sleep (the start wait was 30 s).
    const t0 = Date.now();
    const state = await run('19_ReLU', withDefines('slow_start.c'));
    expect(state.verdict, state.message).toBe('timeout');
    expect(state.message).toMatch(/did not start within 10 s/);
    expect(Date.now() - t0).toBeLessThan(25_000);
  }, 120_000);

  it.concurrent('an infinite loop times out', async () => {
    const state = await run('19_ReLU', withDefines('infinite_loop.c'));
    expect(state.verdict).toBe('timeout');
  }, 120_000);

  it('shrinking the shared data file fails: the harness stays up and gives its verdict', async () => {
    const state = await run('19_ReLU', withDefines('shrink_shared.c'));
    expect(state.verdict, state.message).toBe('accepted');
    expect(state.stdout).toContain('shrink denied');
  }, 120_000);

  it('files written to fill memory stop at the sized tmpfs mounts; the root and /dev are read-only', async () => {
    const state = await run('19_ReLU', withDefines('tmpfs_fill.c'));
    expect(state.verdict, state.message).toBe('accepted');
    const written = Object.fromEntries(
      [...(state.stdout ?? '').matchAll(/fill (\S+) (\d+) MiB/g)].map((m) => [m[1], Number(m[2])]),
    );
    expect(written).toEqual({ '/dev/shm': 16, '/dev': 0, '/tmp': 64, '/w': 0, '/': 0 });
  }, 120_000);

  it('no new processes in the worker (each could hold memory of its own); threads still work', async () => {
    const state = await run('19_ReLU', withDefines('fork_memory.c'));
    expect(state.verdict, state.message).toBe('accepted');
    expect(state.stdout).toContain('forked 0 children; threads work');
  }, 120_000);

  it('system calls no kernel needs (ptrace, namespaces, mounts, bpf, io_uring, ...) are refused with EPERM', async () => {
    const state = await run('19_ReLU', withDefines('syscalls.c'));
    expect(state.verdict, state.message).toBe('accepted');
    const results = [...(state.stdout ?? '').matchAll(/syscall (.+) (\S+)\n/g)].map((m) => [m[1], m[2]]);
    expect(results).toHaveLength(12);
    for (const [name, errno] of results) expect(errno, name).toBe('EPERM');
  }, 120_000);

  it('the core budget: the candidate runs on the cpus the result states; widening them is set back and flagged', async () => {
    // A neighbour pinned to cpu 0 for the whole evaluation: where another cpu is free when it begins, the budget
    // leaves cpu 0 out (both sides); where none is (a loaded machine), the budget is every cpu and says so.
    const cpus = availableParallelism();
    const burner =
      cpus > 1 ? spawn('taskset', ['-c', '0', 'sh', '-c', 'while :; do :; done'], { stdio: 'ignore' }) : null;
    try {
      if (burner) await new Promise((r) => setTimeout(r, 300));
      const state = await run('19_ReLU', withDefines('widen_cores.c'));
      expect(state.verdict, state.message).toBe('accepted');
      const result = state.benchmarking_result!;
      const load = result.load!;
      expect(load.budget_cores, JSON.stringify(load)).toBeGreaterThanOrEqual(1);
      expect(load.budget_cores!).toBeLessThanOrEqual(load.cores);
      const seen = /cores seen: ([\d ]+)\n/
        .exec(state.stdout ?? '')?.[1]
        ?.trim()
        .split(' ')
        .map(Number);
      expect(seen, state.stdout).toBeDefined();
      expect(expandCpus(load.budget_cpus!)).toEqual(seen);
      // sched_setaffinity is allowed (a kernel may place its own threads within its budget)...
      expect(state.stdout).toContain('widen ALLOWED');
      if (load.budget_cores! < load.cores) {
        // ...but reaching outside a narrowed budget is found after the timed calls, set back and flagged.
        if (burner) expect(seen).not.toContain(0);
        expect(load.budget_resets, JSON.stringify(load)).toBeGreaterThanOrEqual(1);
        expect(result.flagged_for_review).toBe(true);
        expect(result.review_reasons.join(' ')).toMatch(/outside the core budget/);
      } else {
        expect(load.budget_resets ?? 0).toBe(0);
      }
    } finally {
      burner?.kill('SIGKILL');
    }
  }, 120_000);

  it('caching by content never pays: every timed sample has fresh inputs', async () => {
    const state = await run('19_ReLU', withDefines('cache_by_content.c'));
    expect(state.verdict, state.message).toBe('accepted');
    expect(state.stdout).toContain('big-call hits=0');
    expect(state.stdout).not.toMatch(/big-call hits=[1-9]/);
  }, 120_000);

  it('a full copy of the last timed input never matches: every element changes between timed samples', async () => {
    const state = await run('19_ReLU', withDefines('cache_by_full_content.c'));
    expect(state.verdict, state.message).toBe('accepted');
    const last = [...(state.stdout ?? '').matchAll(/big-call calls=(\d+) hits=(\d+) max_same=(\d+) of (\d+)/g)].at(-1);
    expect(last, state.stdout).toBeDefined();
    const [calls, hits, maxSame, n] = last!.slice(1).map(Number) as [number, number, number, number];
    expect(calls).toBeGreaterThanOrEqual(6); // one warm-up call, then at least five timed samples
    expect(hits).toBe(0);
    // Two independent draws of a 24-bit float agree with probability 2^-24: about 0.5 of 8M elements.
    expect(maxSame).toBeLessThan(n / 100_000);
  }, 120_000);

  it('reading the data dir, the secret, another candidate or host files fails', async () => {
    const state = await run('19_ReLU', withDefines('read_files.c'));
    expect(state.verdict, state.message).toBe('accepted');
    expect(state.stdout).toContain(`blocked ${secret}`);
    expect(state.stdout).toContain(`blocked ${otherSource}`);
    expect(state.stdout).not.toContain('LEAKED');
    expect(state.stdout).not.toContain('TOP-SECRET');
  }, 120_000);

  it('a network connection fails', async () => {
    const state = await run('19_ReLU', withDefines('network.c'));
    expect(state.verdict, state.message).toBe('accepted');
    expect(state.stdout).toContain('connect failed');
  }, 120_000);

  it('a flood of output is capped', async () => {
    const state = await run('19_ReLU', withDefines('output_flood.c'));
    expect(state.verdict, state.message).toBe('accepted');
    expect(state.stdout!.length).toBeLessThan(70 * 1024);
    expect(state.stdout).toMatch(/more bytes dropped/);
  }, 120_000);

  it('a fork bomb times out and leaves nothing behind', async () => {
    const state = await run('19_ReLU', withDefines('fork_bomb.c'));
    expect(state.verdict).toBe('timeout');
    await new Promise((r) => setTimeout(r, 500));
    expect(ourSandboxes()).toEqual([]);
  }, 120_000);

  // RLIMIT_NPROC counts per uid: a runner that is root gives each evaluation's sandboxes a uid of their own,
  // so a bomb fills only its own quota (as a plain user the sandboxes share the user's; docs/evaluation.md).
  it.runIf(process.getuid?.() === 0)(
    'a fork bomb does not stop another evaluation running beside it from starting',
    async () => {
      const bomb = run('19_ReLU', withDefines('fork_bomb.c'));
      await new Promise((r) => setTimeout(r, 1500)); // the bomb has filled its quota by now
      const [other, bombed] = await Promise.all([run('19_ReLU', good()), bomb]);
      expect(other.verdict, other.message).toBe('accepted');
      expect(bombed.verdict).toBe('timeout');
    },
    120_000,
  );

  it('the runner is still healthy after all of them', expectHealthy, 120_000);
});
