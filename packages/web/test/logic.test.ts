import { type AgentSession, ApiError, ConnectionError, ResponseValidationError } from '@kernelforge/sdk';
import { describe, expect, it } from 'vitest';
import { diffLines } from '../src/lib/diff';
import { applySessionEvent } from '@kernelforge/sdk';
import { authErrorMessage, lacksAccessToken } from '../src/lib/authErrors';
import { loginPath, safeRedirect } from '../src/lib/authPaths';
import { resolveAuthBase } from '../src/lib/client';
import { initTheme } from '../src/lib/theme';
import { parentOf } from '../src/lib/wayBack';
import { extraTitle, problemLabel } from '../src/lib/problemName';

describe('small rules', () => {
  it('names a problem by its id, with its title only where the title says more than the id', () => {
    expect(problemLabel('19_ReLU', 'ReLU')).toBe('19_ReLU · ReLU');
    expect(problemLabel('26_GELU_', 'GELU (tanh approximation)')).toBe('26_GELU_ · GELU (tanh approximation)');
    expect(problemLabel('19_ReLU')).toBe('19_ReLU');
    expect(problemLabel('19_ReLU', '  ')).toBe('19_ReLU');
    // A title that only spells the id out adds nothing.
    expect(extraTitle('101_HardSigmoid', '101 HardSigmoid')).toBeUndefined();
    expect(extraTitle('19_ReLU', '19_ReLU')).toBeUndefined();
    expect(extraTitle('19_ReLU', 'ReLU')).toBe('ReLU');
  });

  it('finds the page above a dead end: the session above its attempts, the boards above one board', () => {
    expect(parentOf('/kernels/s1/attempts/a9').href).toBe('/kernels/s1');
    expect(parentOf('/kernels/s1/attempts').href).toBe('/kernels/s1');
    expect(parentOf('/kernels/s1').href).toBe('/sessions');
    expect(parentOf('/leaderboard/nope').href).toBe('/leaderboard/');
    expect(parentOf('/leaderboard/submission/x').href).toBe('/leaderboard/');
    expect(parentOf('/somewhere/else').href).toBe('/sessions');
  });

  it('builds the login redirect with login=1 and redirect=<path>', () => {
    expect(loginPath('/kernels/abc')).toBe('/?login=1&redirect=%2Fkernels%2Fabc');
    expect(safeRedirect('//evil.example')).toBeUndefined();
    expect(safeRedirect('https://evil.example')).toBeUndefined();
    expect(safeRedirect('/tokens/')).toBe('/tokens/');
  });

  it('diffs lines by their longest common subsequence', () => {
    expect(diffLines('a\nb\nc', 'a\nx\nc')).toEqual([
      { kind: 'same', text: 'a' },
      { kind: 'removed', text: 'b' },
      { kind: 'added', text: 'x' },
      { kind: 'same', text: 'c' },
    ]);
  });

  it('uses the auth server path on this origin when the settings name a local host', () => {
    expect(resolveAuthBase('http://localhost:8000/auth', 'http://127.0.0.1:4321')).toBe('/auth');
    expect(resolveAuthBase('/auth', 'http://x')).toBe('/auth');
    expect(resolveAuthBase('https://auth.example.com/v1', 'http://x.example')).toBe('https://auth.example.com/v1');
  });

  it('folds live events into the cached session', () => {
    const base = {
      id: 's1',
      status: 'active',
      generation_attempts: [],
      user_instructions: [],
      best_attempt: null,
    } as unknown as AgentSession;
    const attempt = {
      id: 'a1',
      session_id: 's1',
      attempt_number: 1,
      status: 'queued',
      evaluation_state: null,
    } as unknown as AgentSession['generation_attempts'][number];
    let s = applySessionEvent(base, { type: 'attempt.created', session_id: 's1', attempt });
    expect(s.generation_attempts).toHaveLength(1);
    s = applySessionEvent(s, {
      type: 'attempt.updated',
      session_id: 's1',
      attempt: { ...attempt, status: 'generating' },
    });
    expect(s.generation_attempts).toHaveLength(1);
    expect(s.generation_attempts[0]?.status).toBe('generating');
    s = applySessionEvent(s, { type: 'session.status', session_id: 's1', status: 'stopped' });
    expect(s.status).toBe('stopped');
    expect(applySessionEvent(s, { type: 'session.status', session_id: 'other', status: 'idle' })).toBe(s);
  });

  it("shows the server's detail on an auth error, else the fallback", () => {
    expect(authErrorMessage(new ApiError(400, 'Bad Request', { detail: 'Inactive user' }), 'Login failed')).toBe(
      'Inactive user',
    );
    expect(authErrorMessage(new ApiError(400, 'Bad Request', {}), 'Login failed')).toBe('Login failed');
    expect(authErrorMessage(new ApiError(502, 'Bad Gateway', '<html>down</html>'), 'Login failed')).toBe(
      'Login failed',
    );
    expect(authErrorMessage(new ConnectionError(), 'Failed to send magic link')).toBe('Failed to send magic link');
    expect(lacksAccessToken(new ResponseValidationError('POST /users/register', [], {}))).toBe(true);
    expect(
      lacksAccessToken(new ResponseValidationError('POST /users/register', [], { token: { access_token: 'x' } })),
    ).toBe(false);
  });

  it("writes the default theme 'light' under `theme` and keeps a stored choice", () => {
    const store = new Map<string, string>();
    const storage = {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
    };
    expect(initTheme(storage)).toBe('light');
    expect(store.get('theme')).toBe('light');
    store.set('theme', 'dark');
    expect(initTheme(storage)).toBe('dark');
    expect(store.get('theme')).toBe('dark');
  });
});
