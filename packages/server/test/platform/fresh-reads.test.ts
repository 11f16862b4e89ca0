// Shared reads (db/fresh-reads.ts): callers share a read only if it started after they asked.
import { describe, expect, it } from 'vitest';
import { FreshReads } from '../../src/db/fresh-reads.js';

/** A read that the test finishes by hand, numbered in the order the reads started. */
function reads() {
  const started: Array<{ n: number; finish: (v: number) => void; fail: (e: Error) => void }> = [];
  const run = () =>
    new Promise<number>((resolve, reject) => {
      const n = started.length + 1;
      started.push({ n, finish: resolve, fail: reject });
    });
  return { started, run };
}
const tick = () => new Promise((r) => setImmediate(r));

describe('FreshReads', () => {
  it('gives a caller that comes while a read runs the next read, shared with everyone who came meanwhile', async () => {
    const shared = new FreshReads();
    const { started, run } = reads();
    const first = shared.read('k', run);
    expect(started).toHaveLength(1);
    // Three callers while read 1 runs: none may get read 1's rows, all share read 2, which waits for read 1.
    const later = [shared.read('k', run), shared.read('k', run), shared.read('k', run)];
    expect(started).toHaveLength(1);
    expect(shared.inFlight).toBe(1);
    started[0]?.finish(1);
    expect(await first).toBe(1);
    await tick();
    expect(started).toHaveLength(2);
    // A caller that comes while read 2 runs waits for read 3.
    const last = shared.read('k', run);
    started[1]?.finish(2);
    expect(await Promise.all(later)).toEqual([2, 2, 2]);
    await tick();
    expect(started).toHaveLength(3);
    started[2]?.finish(3);
    expect(await last).toBe(3);
    await tick();
    expect(shared.inFlight).toBe(0);
    // Nothing running: a new caller starts its own read at once.
    const fresh = shared.read('k', run);
    expect(started).toHaveLength(4);
    started[3]?.finish(4);
    expect(await fresh).toBe(4);
  });

  it('keeps keys apart, and a failed read fails only its own callers', async () => {
    const shared = new FreshReads();
    const { started, run } = reads();
    const a = shared.read('a', run);
    const b = shared.read('b', run);
    expect(started).toHaveLength(2);
    const aNext = shared.read('a', run);
    started[0]?.fail(new Error('connection lost'));
    await expect(a).rejects.toThrow('connection lost');
    await tick();
    // The callers queued behind a failed read still get a read of their own.
    expect(started).toHaveLength(3);
    started[2]?.finish(30);
    expect(await aNext).toBe(30);
    started[1]?.finish(20);
    expect(await b).toBe(20);
  });
});
