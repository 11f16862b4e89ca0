// Registration costs the same for an address that has an account and one that has none (no enumeration by timing).
// A timing comparison: it runs in the serial pass (scripts/test-passes.mjs), not beside other test files.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

describe('registration does not reveal which addresses have accounts', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { KFORGE_MAIL_PER_HOUR: '0' } });
    await server.createUser({ email: 'taken@kforge.test', password: 'some-password' });
  });
  afterAll(() => server?.stop());

  const register = async (email: string) => {
    const started = performance.now();
    const r = await server.request('/auth/users/register/email-verification-token', {
      method: 'POST',
      json: { email, password: 'a-long-password', full_name: 'Someone' },
    });
    const ms = performance.now() - started;
    expect(r.status).toBe(200);
    return { ms, body: await r.json() };
  };

  it('answers the same, at the same cost (medians within 20%), for a new and an existing email', async () => {
    const existing: number[] = [];
    const fresh: number[] = [];
    // Warm-up, then interleaved runs so load on the machine hits both sides alike.
    await register('warmup@kforge.test');
    await register('taken@kforge.test');
    for (let i = 0; i < 9; i++) {
      const a = await register('taken@kforge.test');
      const b = await register(`new-${i}@kforge.test`);
      expect(a.body).toEqual(b.body);
      existing.push(a.ms);
      fresh.push(b.ms);
    }
    const mExisting = median(existing);
    const mNew = median(fresh);
    console.log(`register medians: existing ${mExisting.toFixed(1)} ms, new ${mNew.toFixed(1)} ms`);
    expect(Math.abs(mExisting - mNew) / Math.max(mExisting, mNew)).toBeLessThan(0.2);
  });
});
