// Submissions and leaderboards.
import { type HttpClient, path, type RequestOptions } from '../core/http.js';
import { PAGE_SIZE, PagePromise } from '../core/pagination.js';
import { listOf } from '../schemas/common.js';
import {
  ALL_LEADERBOARDS_LIMIT,
  type CreateSubmissionRequest,
  DEFAULT_LEADERBOARD_LIMIT,
  Leaderboard,
  LeaderboardList,
  Submission,
  SubmissionDetail,
  type SubmissionPurpose,
} from '../schemas/leaderboard.js';
import { SubmissionProgress } from '../schemas/submission-progress.js';

export class LeaderboardsResource {
  constructor(private readonly http: HttpClient) {}

  /** GET /api/v1/leaderboard: every problem with its top `limit` (default 3). */
  list(params: { limit?: number; device?: string } = {}, options?: RequestOptions) {
    return this.http.request({
      ...options,
      method: 'GET',
      path: '/leaderboard',
      query: { limit: params.limit ?? ALL_LEADERBOARDS_LIMIT, device: params.device },
      schema: LeaderboardList,
    });
  }

  /** GET /api/v1/leaderboard/{problem_name}: the top `limit` (default 50; the web page asks for 100). */
  get(problemName: string, params: { limit?: number; device?: string } = {}, options?: RequestOptions) {
    return this.http.request({
      ...options,
      method: 'GET',
      path: path`/leaderboard/${problemName}`,
      query: { limit: params.limit ?? DEFAULT_LEADERBOARD_LIMIT, device: params.device },
      schema: Leaderboard,
    });
  }

  /** GET /api/v1/leaderboard/submission/{submission_id} */
  submission(submissionId: string, options?: RequestOptions) {
    return this.http.request({
      ...options,
      method: 'GET',
      path: path`/leaderboard/submission/${submissionId}`,
      schema: SubmissionDetail,
    });
  }
}

export class SubmissionsResource {
  constructor(private readonly http: HttpClient) {}

  /** POST /api/v1/submission: queued for a ranked evaluation; follow it with leaderboards.submission(id). */
  create(body: CreateSubmissionRequest, options?: RequestOptions) {
    return this.http.request({ ...options, method: 'POST', path: '/submission', json: body, schema: Submission });
  }

  /**
   * POST /api/v1/submission/test ("Run tests"): the source compiled, checked and benchmarked in benchmark mode on
   * public inputs; never ranked, never on a leaderboard. Follow it as a submission (leaderboards.submission(id)).
   */
  test(body: CreateSubmissionRequest, options?: RequestOptions) {
    return this.http.request({ ...options, method: 'POST', path: '/submission/test', json: body, schema: Submission });
  }

  /** GET /api/v1/submission/{id}/progress: while it is not finished, its place in the queue or what runs now. */
  progress(id: string, options?: RequestOptions) {
    return this.http.request({
      ...options,
      method: 'GET',
      path: path`/submission/${id}/progress`,
      schema: SubmissionProgress,
    });
  }

  /** GET /api/v1/submission: the caller's submissions, newest first (`purpose: 'test'`: their test runs instead). */
  list(
    params: { limit?: number; offset?: number; problem_name?: string; purpose?: SubmissionPurpose } = {},
    options?: RequestOptions,
  ) {
    return new PagePromise(
      (offset, limit) =>
        this.http.request({
          ...options,
          method: 'GET',
          path: '/submission',
          query: { problem_name: params.problem_name, purpose: params.purpose, limit, offset },
          schema: listOf(Submission),
        }),
      params.offset ?? 0,
      params.limit ?? PAGE_SIZE,
    );
  }
}
