// @vitest-environment happy-dom
// The leaderboards index: problems with entries first, the ones nobody has entered yet folded below (issue 23
// item 4: the index was 5,280 px tall on a phone, mostly repeated "no entry yet").
import type { Leaderboard } from '@kernelforge/sdk';
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, jwt, renderApp, settings, user } from './helpers';

beforeEach(() => localStorage.setItem('access_token', jwt(3600)));
afterEach(() => {
  cleanup();
  localStorage.clear();
  vi.unstubAllGlobals();
});

const board = (name: string, count: number): Leaderboard => ({
  problem_name: name,
  title: name.replace(/^\d+_/, '').replace(/_/g, ' '),
  count,
  entries:
    count === 0
      ? []
      : [
          {
            rank: 1,
            submission_id: `s-${name}`,
            user: { id: 'u1', full_name: null, display_name: 'Ada' },
            problem_name: name,
            device: 'cpu-x86_64-avx2-test',
            time_ms: 1.5,
            speedup: 1.2,
            runs: 1,
            within_noise_of_previous: false,
            flagged_for_review: false,
            review_reasons: [],
            created_at: '2026-11-26T00:00:00.000Z',
          },
        ],
});

function api(boards: Leaderboard[]) {
  fakeApi({
    'GET /api/v1/settings': { body: settings },
    'GET /auth/users/me': { body: user },
    'GET /api/v1/problems': { body: { data: [], count: 0 } },
    'GET /api/v1/leaderboard': { body: { data: boards, count: boards.length } },
  });
}

describe('the leaderboards index', () => {
  it('lists problems with entries, and folds the ones with none under a count', async () => {
    api([board('19_ReLU', 2), board('20_LeakyReLU', 0), board('23_Softmax', 0)]);
    renderApp('/leaderboard/');
    const table = await screen.findByTestId('problems');
    expect(within(table).getAllByTestId('problem-row')).toHaveLength(1);
    const folded = screen.getByTestId('empty-problems') as HTMLDetailsElement;
    expect(folded.open).toBe(false);
    expect(within(folded).getByText('2 problems with no entry yet')).toBeTruthy();
    expect(within(folded).getByRole('link', { name: '20_LeakyReLU' }).getAttribute('href')).toBe(
      '/leaderboard/20_LeakyReLU',
    );
  });

  it('with no entry anywhere, says what to do first and shows the problems unfolded', async () => {
    api([board('19_ReLU', 0), board('20_LeakyReLU', 0)]);
    renderApp('/leaderboard/');
    expect(await screen.findByTestId('no-entries')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Submit a solution' }).getAttribute('href')).toBe('/kernels/submit');
    expect((screen.getByTestId('empty-problems') as HTMLDetailsElement).open).toBe(true);
    expect(screen.queryByTestId('problems')).toBeNull();
  });
});
