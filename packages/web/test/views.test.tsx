// @vitest-environment happy-dom
import { ApiError, type Device, type Submission } from '@kernelforge/sdk';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DefaultErrorView } from '../src/components/DefaultErrorView';
import { DeviceSelect } from '../src/components/DeviceSelect';
import { MySubmissionsTable } from '../src/components/MySubmissions';
import { QueryError } from '../src/components/QueryState';
import { parseLoginSearch } from '../src/lib/authPaths';
import { dropUnusableToken } from '../src/lib/client';
import { matchPath } from '../src/lib/matchPath';
import { bestAttemptTarget } from '../src/pages/BestAttemptRedirectPage';
import { findRoute } from '../src/routes';
import { currentPath, fakeApi, jwt, renderApp, settings, user } from './helpers';

beforeEach(() => {
  localStorage.clear();
  document.documentElement.classList.remove('dark');
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the token rule', () => {
  it('removes an expired token and an unreadable one, keeps a live JWT and an API token', () => {
    localStorage.setItem('access_token', jwt(-10));
    expect(dropUnusableToken()).toBe(true);
    expect(localStorage.getItem('access_token')).toBeNull();
    localStorage.setItem('access_token', 'not-a-jwt');
    dropUnusableToken();
    expect(localStorage.getItem('access_token')).toBeNull();
    const live = jwt(3600);
    localStorage.setItem('access_token', live);
    expect(dropUnusableToken()).toBe(false);
    expect(localStorage.getItem('access_token')).toBe(live);
    localStorage.setItem('access_token', 'kf_abc');
    dropUnusableToken();
    expect(localStorage.getItem('access_token')).toBe('kf_abc');
  });
});

describe('the 404 page and the error views', () => {
  it('shows the 404 page for an unknown route with a link home', async () => {
    fakeApi({ 'GET /api/v1/settings': { body: settings } });
    renderApp('/no/such/page');
    expect(await screen.findByText('404 - Not Found')).toBeTruthy();
    expect(screen.getByText('The page you are looking for does not exist.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go back to Home' }).getAttribute('href')).toBe('/');
  });

  it("toggles the error message with 'Show Error' and 'Hide Error'", () => {
    render(<DefaultErrorView error={new Error('boom')} />);
    expect(screen.getByText('Something went wrong!')).toBeTruthy();
    expect(screen.queryByText('boom')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Show Error' }));
    expect(screen.getByText('boom')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Hide Error' }));
    expect(screen.queryByText('boom')).toBeNull();
  });

  it("words a failed query as 'Something went wrong: {status text}' with the detail or 'Unknown error'", () => {
    render(<QueryError error={new ApiError(404, 'Not Found', { detail: 'Session not found' })} />);
    expect(screen.getByText('Something went wrong: Not Found')).toBeTruthy();
    expect(screen.getByText('Session not found')).toBeTruthy();
    cleanup();
    render(<QueryError error={new ApiError(500, 'Internal Server Error', null)} />);
    expect(screen.getByText('Something went wrong: Internal Server Error')).toBeTruthy();
    expect(screen.getByText('Unknown error')).toBeTruthy();
  });

  it("shows 'Session not found' on the attempts page of a missing session", async () => {
    localStorage.setItem('access_token', jwt(3600));
    fakeApi({ 'GET /api/v1/settings': { body: settings }, 'GET /auth/users/me': { body: user } });
    renderApp('/kernels/nope/attempts');
    expect(await screen.findByText('Something went wrong!')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Show Error' }));
    expect(screen.getByText('Session not found')).toBeTruthy();
  });

  it("shows the fallback paragraph 'Not Found' for an attempt the session lacks", async () => {
    localStorage.setItem('access_token', jwt(3600));
    fakeApi({
      'GET /api/v1/settings': { body: settings },
      'GET /auth/users/me': { body: user },
      'GET /api/v1/agent-session/s1': { body: session([]) },
    });
    renderApp('/kernels/s1/attempts/zzz');
    expect(await screen.findByText('Not Found')).toBeTruthy();
    // ... with a way back to the session it was looked for in.
    const up = screen.getByRole('link', { name: /^Back to / });
    expect(up.getAttribute('href')).toBe('/kernels/s1');
  });
});

function attempt(n: number, status: string, time?: number) {
  return {
    id: `a${n}`,
    session_id: 's1',
    instruction_id: null,
    attempt_number: n,
    status,
    language: 'c',
    source: `int x = ${n};`,
    explanation: null,
    evaluation_state:
      time === undefined
        ? null
        : {
            verdict: 'accepted',
            mode: 'benchmark',
            message: 'ok',
            compile: null,
            correctness: null,
            benchmarking_result: {
              optimized_time: time,
              baseline_time: 10,
              speedup: 10 / time,
              gbps: 1,
              gflops: 1,
              fraction_of_peak: 0.1,
              cases: [],
            },
            runner_seconds: 1,
            evaluated_at: '2026-01-01T00:00:00Z',
          },
    created_at: '2026-01-01T00:00:00Z',
    finished_at: null,
  };
}

function session(attempts: unknown[]) {
  return {
    id: 's1',
    owner_id: 'u1',
    problem_name: '19_ReLU',
    name: 'relu',
    label: 'relu',
    device: 'cpu-x86_64',
    status: 'idle',
    agent: { provider: 'tuner', model: null },
    created_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-01T00:00:00Z',
    deleted_at: null,
    best_attempt: null,
    generation_attempts: attempts,
    user_instructions: [],
  };
}

describe('the best-attempt redirect of /kernels/{kernelId}/', () => {
  it('chooses / when signed out, the new-kernel page without a session, else the best attempt', () => {
    expect(bestAttemptTarget('s1', null, undefined)).toBe('/');
    expect(bestAttemptTarget('', user, undefined)).toBe('/kernels/generate-kernel');
    expect(bestAttemptTarget('s1', user, null)).toBe('/kernels/generate-kernel');
    expect(bestAttemptTarget('s1', user, undefined)).toBeUndefined();
  });

  it('goes to the completed attempt with the lowest time', async () => {
    localStorage.setItem('access_token', jwt(3600));
    fakeApi({
      'GET /api/v1/settings': { body: settings },
      'GET /auth/users/me': { body: user },
      'GET /api/v1/agent-session/s1': {
        body: session([
          attempt(1, 'completed', 5),
          attempt(2, 'completed', 2),
          attempt(3, 'failed'),
          attempt(4, 'completed', 3),
        ]),
      },
    });
    const { location } = renderApp('/kernels/s1/');
    await waitFor(() => expect(currentPath(location)).toBe('/kernels/s1/attempts/a2'));
    expect(await screen.findByRole('heading', { name: 'Attempt #2' })).toBeTruthy();
  });

  it('sends a signed-out visitor to /', async () => {
    fakeApi({ 'GET /api/v1/settings': { body: settings } });
    const { location } = renderApp('/kernels/s1/');
    await waitFor(() => expect(currentPath(location)).toBe('/'));
  });

  it('goes to /kernels/generate-kernel when the session does not exist', async () => {
    localStorage.setItem('access_token', jwt(3600));
    fakeApi({ 'GET /api/v1/settings': { body: settings }, 'GET /auth/users/me': { body: user } });
    const { location } = renderApp('/kernels/nope/');
    await waitFor(() => expect(currentPath(location)).toBe('/kernels/generate-kernel'));
  });
});

describe('pages and titles', () => {
  it("titles a session page 'Kernel: <label>' and a leaderboard 'Problem: <name with spaces>'", async () => {
    localStorage.setItem('access_token', jwt(3600));
    fakeApi({
      'GET /api/v1/settings': { body: settings },
      'GET /auth/users/me': { body: user },
      'GET /api/v1/agent-session/s1': { body: session([attempt(1, 'completed', 5)]) },
      'GET /api/v1/agent-session/s1/events': { body: '' },
      'GET /api/v1/leaderboard/19_ReLU': { body: { problem_name: '19_ReLU', title: 'ReLU', entries: [], count: 0 } },
      'GET /api/v1/devices': { body: { data: [], count: 0 } },
    });
    renderApp('/kernels/s1');
    expect(await screen.findByRole('heading', { name: 'Kernel: relu' })).toBeTruthy();
    cleanup();
    renderApp('/leaderboard/19_ReLU');
    expect(await screen.findByRole('heading', { name: 'Problem: 19 ReLU' })).toBeTruthy();
  });

  it('matches paths strictly, trailing slash included', () => {
    expect(matchPath('/kernels/:kernelId', '/kernels/abc')).toEqual({ kernelId: 'abc' });
    expect(matchPath('/kernels/:kernelId', '/kernels/abc/')).toBeNull();
    expect(findRoute('/kernels/generate-kernel')?.params).toEqual({});
    expect(findRoute('/kernels/abc/')?.route.patterns).toEqual(['/kernels/:kernelId/']);
    expect(findRoute('/nowhere')).toBeUndefined();
  });

  it('reads the login search params: login a number, redirect a string', () => {
    expect(parseLoginSearch('login=1&redirect=%2Ftokens%2F')).toEqual({ login: 1, redirect: '/tokens/' });
    expect(parseLoginSearch('login=yes')).toEqual({ login: undefined, redirect: undefined });
  });
});

describe('the theme', () => {
  it('defaults to light, toggles the dark class and keeps the choice under `theme`', async () => {
    fakeApi({ 'GET /api/v1/settings': { body: settings } });
    renderApp('/');
    const toggle = await screen.findByRole('button', { name: 'Switch to dark theme' });
    expect(document.documentElement.classList.contains('dark')).toBe(false);
    fireEvent.click(toggle);
    expect(localStorage.getItem('theme')).toBe('dark');
    expect(document.documentElement.classList.contains('dark')).toBe(true);
    cleanup();
    renderApp('/');
    fireEvent.click(await screen.findByRole('button', { name: 'Switch to light theme' }));
    expect(localStorage.getItem('theme')).toBe('light');
    expect(document.documentElement.classList.contains('dark')).toBe(false);
  });
});

describe('your submissions', () => {
  // ProblemName reads the problem catalogue for the titles beside the ids.
  beforeEach(() => {
    fakeApi({ 'GET /api/v1/problems': { body: { data: [], count: 0 } } });
  });
  const submission = (over: Partial<Submission>): Submission => ({
    id: '5b0c8f7e-1d2a-4c3b-9e8f-0a1b2c3d4e5f',
    user: { id: '7806acb7-816e-4d91-835b-3b79be97e4c4', full_name: null, display_name: 'me' },
    problem_name: '19_ReLU',
    device: 'cpu-x86_64',
    language: 'c',
    source: null,
    status: 'completed',
    verdict: 'accepted',
    time_ms: 1.18,
    speedup: 1.37,
    evaluation_state: null,
    created_at: '2026-11-22T01:47:38.636Z',
    finished_at: '2026-11-22T01:47:40.006Z',
    ...over,
  });

  it('lists each with its verdict or status, time and speedup, linking to its page', () => {
    render(
      <MySubmissionsTable
        total={12}
        submissions={[
          submission({}),
          submission({ id: 'b1', status: 'evaluating', verdict: null, time_ms: null, speedup: null }),
          submission({
            id: 'c2',
            problem_name: '1_Square_matrix_multiplication_',
            verdict: 'rejected',
            time_ms: null,
            speedup: null,
          }),
        ]}
      />,
    );
    const rows = screen.getAllByTestId('my-submission');
    expect(rows).toHaveLength(3);
    expect(rows[0]?.textContent).toMatch(/19_ReLU.*cpu-x86_64.*accepted.*1\.180 ms.*1\.37/);
    expect(rows[1]?.textContent).toContain('evaluating');
    expect(rows[2]?.textContent).toMatch(/1_Square_matrix_multiplication_.*rejected/);
    expect(screen.getAllByRole('link')[0]?.getAttribute('href')).toBe(
      '/leaderboard/submission/5b0c8f7e-1d2a-4c3b-9e8f-0a1b2c3d4e5f',
    );
    expect(screen.getByText('The latest 3 of 12.')).toBeTruthy();
  });

  it('says so when there is none, with the next step', () => {
    render(
      <MySubmissionsTable submissions={[]} total={0} emptyAction={{ label: 'Write your solution', focus: 'src' }} />,
    );
    expect(screen.getByText('No submissions yet')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Write your solution' })).toBeTruthy();
  });
});

describe('the device picker', () => {
  const device: Device = {
    id: 'cpu-x86_64',
    kind: 'cpu',
    name: 'AMD EPYC',
    cores: 2,
    available: true,
    runners: 1,
    languages: ['c', 'cpp'],
    peaks: {
      bandwidth_gbps: 30.1,
      fp32_gflops: 79.4,
      source: 'measured',
      theoretical_fp32_gflops: 81.4,
      theoretical_basis: '2 cores x 2.55 GHz x 16 flops/cycle (2 FMA pipes x 4 fp32 lanes x 2)',
      measurement: {
        measured_at: '2026-11-23T15:19:52.844Z',
        runs: 9,
        code_path: 'avx2-fma',
        bandwidth_method: 'best of 15: triad a = b + s*c with non-temporal stores',
        flops_method: 'best of 9: 12 independent avx2-fma FMA chains per thread',
        load_average: 1.17,
      },
    },
    cpu: {
      arch: 'x86_64',
      vector_isa: 'avx2',
      isa: ['avx', 'avx2', 'fma'],
      vector_bits: 256,
      vector_registers: 16,
      caches: { l1d_bytes: 32768, l2_bytes: 524288, l3_bytes: 8388608 },
    },
  };

  it('names the ISA and peaks of each device and says how the selected one was measured', () => {
    render(<DeviceSelect devices={[device]} value="cpu-x86_64" onChange={() => {}} />);
    expect(
      screen.getByRole('option', { name: /AMD EPYC \(cpu-x86_64, avx2, 30\.1 GB\/s, 79 GFLOP\/s\) — available/ }),
    ).toBeTruthy();
    const how = screen.getByTestId('device-peaks').textContent ?? '';
    expect(how).toContain(
      'ISA: avx2 (avx avx2 fma), 16 vector registers of 256 bits; L1d 32 KiB, L2 512 KiB, L3 8 MiB',
    );
    expect(how).toContain('fp32 79.4 GFLOP/s: best of 9: 12 independent avx2-fma FMA chains per thread.');
    expect(how).toContain('Theoretical FMA peak 81.4 GFLOP/s = 2 cores x 2.55 GHz');
    expect(how).toContain('Measured 2026-11-23 15:19:52 UTC at load average 1.17 (avx2-fma code path).');
  });

  it("an older runner's device (no ISA, no measurement record) still reads plainly", () => {
    const { cpu: _cpu, ...old } = device;
    render(
      <DeviceSelect
        devices={[{ ...old, peaks: { bandwidth_gbps: 20, fp32_gflops: 15, source: 'measured' } }]}
        value="cpu-x86_64"
        onChange={() => {}}
      />,
    );
    expect(
      screen.getByRole('option', { name: 'AMD EPYC (cpu-x86_64, 20.0 GB/s, 15 GFLOP/s) — available' }),
    ).toBeTruthy();
    expect(screen.queryByTestId('device-peaks')).toBeNull();
  });

  it('a filter on a device not in the list (not loaded yet, or no runner now) still shows what it filters on', () => {
    render(<DeviceSelect devices={[]} value="cpu-old" onChange={() => {}} allowAny="All devices" />);
    expect((screen.getByLabelText('Device') as HTMLSelectElement).value).toBe('cpu-old');
    cleanup();
    render(<DeviceSelect devices={[device]} value="" onChange={() => {}} allowAny="All devices" />);
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['All devices', 'AMD EPYC (cpu-x86_64)']);
  });
});
