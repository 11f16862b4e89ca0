import { describe, expectTypeOf, it } from 'vitest';
import {
  type AgentSession,
  type ApiError,
  bestAttempt,
  createClient,
  type GenerationAttempt,
  type KernelforgeClient,
  type LeaderboardEntry,
  NotFoundError,
  type Settings,
  type User,
  type Verdict,
} from '../src/index.js';

describe('public types', () => {
  it('createClient returns resources whose calls resolve to the contract types', () => {
    const client = createClient({ baseUrl: 'http://localhost:8000' });
    expectTypeOf(client).toEqualTypeOf<KernelforgeClient>();
    expectTypeOf(client.sessions.get).returns.resolves.toEqualTypeOf<AgentSession>();
    expectTypeOf(client.auth.me).returns.resolves.toEqualTypeOf<User>();
    expectTypeOf(client.settings.get).returns.resolves.toEqualTypeOf<Settings>();
    expectTypeOf<
      Awaited<ReturnType<typeof client.leaderboards.get>>['entries'][number]
    >().toEqualTypeOf<LeaderboardEntry>();
  });

  it('wire fields are snake_case', () => {
    expectTypeOf<AgentSession>().toHaveProperty('owner_id');
    expectTypeOf<AgentSession>().toHaveProperty('problem_name');
    expectTypeOf<GenerationAttempt>().toHaveProperty('attempt_number');
    expectTypeOf<User['is_superuser']>().toEqualTypeOf<boolean>();
    expectTypeOf<NonNullable<GenerationAttempt['evaluation_state']>['verdict']>().toEqualTypeOf<Verdict>();
  });

  it('bestAttempt keeps the attempt type', () => {
    expectTypeOf(bestAttempt<GenerationAttempt>).returns.toEqualTypeOf<GenerationAttempt | undefined>();
  });

  it('errors narrow by class', () => {
    expectTypeOf(new NotFoundError(404, 'Not Found', {})).toMatchTypeOf<ApiError>();
    expectTypeOf<ApiError['detail']>().toEqualTypeOf<string | undefined>();
  });
});
