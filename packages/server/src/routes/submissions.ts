// Submissions and leaderboards (spec section 7 and DESIGN 3): submit for a ranked evaluation, follow it, see the boards.
import {
  ALL_LEADERBOARDS_LIMIT,
  CreateSubmissionRequest,
  DEFAULT_LEADERBOARD_LIMIT,
  Leaderboard,
  LeaderboardList,
  Submission,
  SubmissionDetail,
  SubmissionProgress,
  SubmissionPurpose,
  listOf,
  Text,
} from '@kernelforge/sdk';
import type { Hono } from 'hono';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { type AppEnv, currentUser, userGuards } from '../http/auth.js';
import { routeTable } from '../http/route.js';
import { allLeaderboards, leaderboardFor } from '../services/leaderboards.js';
import { submissionProgressOf } from '../domain/submissions/progress.js';
import { createSubmission, createTestRun, listSubmissions, submissionDetail } from '../domain/submissions/service.js';

const SubmissionList = listOf(Submission);
const BoardQuery = z.object({ limit: z.number().int().min(1).max(1000).optional(), device: Text.max(100).optional() });
const SubmissionQuery = z.object({
  limit: z.number().int().min(1).max(1000).optional(),
  offset: z.number().int().min(0).optional(),
  problem_name: Text.max(200).optional(),
  /** `submit` (the default): ranked submissions; `test`: the caller's test runs ("Run tests"). */
  purpose: SubmissionPurpose.optional(),
});

export function mountSubmissionRoutes(api: Hono<AppEnv>, ctx: AppContext): void {
  const route = routeTable(api, '/api/v1', userGuards(ctx));

  route(
    {
      method: 'post',
      path: '/submission',
      summary: 'Submit a source for a ranked evaluation (queued)',
      tags: ['submission'],
      auth: 'user',
      body: CreateSubmissionRequest,
      response: Submission,
      status: 201,
      errors: [404, 429],
    },
    async (c, { body }) => createSubmission(ctx, currentUser(c), body),
  );

  route(
    {
      method: 'post',
      path: '/submission/test',
      summary:
        'Run tests: the source compiled, checked and benchmarked in benchmark mode on public inputs (queued); never ranked, never on a leaderboard, its own limits (at most 2 unfinished, a daily quota)',
      tags: ['submission'],
      auth: 'user',
      body: CreateSubmissionRequest,
      response: Submission,
      status: 201,
      errors: [404, 429],
    },
    async (c, { body }) => createTestRun(ctx, currentUser(c), body),
  );

  route(
    {
      method: 'get',
      path: '/submission',
      summary: "The caller's submissions, newest first",
      tags: ['submission'],
      auth: 'user',
      query: SubmissionQuery,
      response: SubmissionList,
    },
    async (c, { query: q }) => {
      const page = { limit: q.limit ?? 50, offset: q.offset ?? 0, problemName: q.problem_name, purpose: q.purpose };
      return listSubmissions(ctx, currentUser(c), page);
    },
  );

  route(
    {
      method: 'get',
      path: '/submission/{id}/progress',
      summary: "While a submission is not finished: its place in the device's queue, or what its runner reports now",
      tags: ['submission'],
      auth: 'user',
      params: z.object({ id: Text.max(100) }),
      response: SubmissionProgress,
      errors: [404],
    },
    async (c, { params }) => submissionProgressOf(ctx, currentUser(c), params.id),
  );

  // The static /leaderboard/submission/{id} comes before /leaderboard/{problem_name}.
  route(
    {
      method: 'get',
      path: '/leaderboard/submission/{submission_id}',
      summary: "A submission's detail; the source only for its owner and superusers",
      tags: ['leaderboard'],
      auth: 'user',
      params: z.object({ submission_id: Text.max(100) }),
      response: SubmissionDetail,
      errors: [404],
    },
    async (c, { params }) => submissionDetail(ctx, currentUser(c), params.submission_id),
  );

  route(
    {
      method: 'get',
      path: '/leaderboard',
      summary: 'Every problem with its top entries',
      tags: ['leaderboard'],
      auth: 'user',
      query: BoardQuery,
      response: LeaderboardList,
    },
    async (c, { query: q }) =>
      allLeaderboards(ctx, { limit: q.limit ?? ALL_LEADERBOARDS_LIMIT, device: q.device }, currentUser(c)),
  );

  route(
    {
      method: 'get',
      path: '/leaderboard/{problem_name}',
      summary: "One problem's leaderboard",
      tags: ['leaderboard'],
      auth: 'user',
      params: z.object({ problem_name: Text.max(200) }),
      query: BoardQuery,
      response: Leaderboard,
      errors: [404],
    },
    async (c, { params, query: q }) =>
      leaderboardFor(
        ctx,
        params.problem_name,
        { limit: q.limit ?? DEFAULT_LEADERBOARD_LIMIT, device: q.device },
        currentUser(c),
      ),
  );
}
