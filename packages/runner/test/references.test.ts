import { describe, expect, it } from 'vitest';
import { catalogue, referenceAsCandidate, run } from './helpers.js';

describe("every problem's reference passes its own correctness check on cpu", () => {
  for (const name of catalogue.keys()) {
    it(name, async () => {
      const state = await run(name, referenceAsCandidate(name));
      if (state.verdict !== 'accepted') console.error(name, state.message, state.compile?.log);
      expect(state.correctness?.passed).toBe(true);
      expect(state.verdict).toBe('accepted');
      // every test case x 3 seeds x 2 distributions
      const def = catalogue.get(name)!;
      expect(state.correctness?.cases.length).toBe(def.cases.test.length * 3 * def.distributions.length);
    }, 120_000);
  }
});
