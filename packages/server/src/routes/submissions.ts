// Submissions and leaderboards (spec section 7 and DESIGN 3): submit for a ranked evaluation, follow it, see the boards.
import {
  ALL_LEADERBOARDS_LIMIT,
  CreateSubmissionRequest,
  DEFAULT_LEADERBOARD_LIMIT,
  Leaderboard,
  LeaderboardList,
  Submission,
  SubmissionDetail,
  listOf,
  Text,
} from '@kernelforge/sdk';
import type { Hono } from 'hono';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { type AppEnv, currentUser, requireUser } from '../http/auth.js';
import { registerRoute } from '../http/openapi.js';
import { parseJson, parseParams, parseQuery } from '../http/validate.js';
import { allLeaderboards, leaderboardFor } from '../services/leaderboards.js';
import { createSubmission, listSubmissions, submissionDetail } from '../services/submissions.js';

const SubmissionList = listOf(Submission);
const BoardQuery = z.object({ limit: z.number().int().min(1).max(1000).optional(), device: Text.max(100).optional() });
const SubmissionQuery = z.object({
  limit: z.number().int().min(1).max(1000).optional(),
  offset: z.number().int().min(0).optional(),
  problem_name: Text.max(200).optional(),
});

export function mountSubmissionRoutes(api: Hono<AppEnv>, ctx: AppContext): void {
  const auth = requireUser(ctx);

  registerRoute({
    method: 'post',
    path: '/api/v1/submission',
    summary: 'Submit a source for a ranked evaluation (queued)',
    tags: ['submission'],
    auth: 'user',
    request: { body: CreateSubmissionRequest },
    response: Submission,
    status: 201,
    errors: [404, 429],
  });
  api.post('/submission', auth, async (c) => {
    const body = await parseJson(c, CreateSubmissionRequest);
    return c.json(Submission.parse(await createSubmission(ctx, currentUser(c), body)), 201);
  });

  registerRoute({
    method: 'get',
    path: '/api/v1/submission',
    summary: "The caller's submissions, newest first",
    tags: ['submission'],
    auth: 'user',
    request: { query: SubmissionQuery },
    response: SubmissionList,
  });
  api.get('/submission', auth, async (c) => {
    const q = parseQuery(c, SubmissionQuery);
    const page = { limit: q.limit ?? 50, offset: q.offset ?? 0, problemName: q.problem_name };
    return c.json(SubmissionList.parse(await listSubmissions(ctx, currentUser(c), page)));
  });

  // The static /leaderboard/submission/{id} comes before /leaderboard/{problem_name}.
  const SubmissionId = z.object({ submission_id: Text.max(100) });
  registerRoute({
    method: 'get',
    path: '/api/v1/leaderboard/submission/{submission_id}',
    summary: "A submission's detail; the source only for its owner and superusers",
    tags: ['leaderboard'],
    auth: 'user',
    request: { params: SubmissionId },
    response: SubmissionDetail,
    errors: [404],
  });
  api.get('/leaderboard/submission/:submission_id', auth, async (c) => {
    const { submission_id } = parseParams(c, SubmissionId);
    return c.json(SubmissionDetail.parse(await submissionDetail(ctx, currentUser(c), submission_id)));
  });

  registerRoute({
    method: 'get',
    path: '/api/v1/leaderboard',
    summary: 'Every problem with its top entries',
    tags: ['leaderboard'],
    auth: 'user',
    request: { query: BoardQuery },
    response: LeaderboardList,
  });
  api.get('/leaderboard', auth, async (c) => {
    const q = parseQuery(c, BoardQuery);
    return c.json(
      LeaderboardList.parse(await allLeaderboards(ctx, { limit: q.limit ?? ALL_LEADERBOARDS_LIMIT, device: q.device })),
    );
  });

  const ProblemParam = z.object({ problem_name: Text.max(200) });
  registerRoute({
    method: 'get',
    path: '/api/v1/leaderboard/{problem_name}',
    summary: "One problem's leaderboard",
    tags: ['leaderboard'],
    auth: 'user',
    request: { params: ProblemParam, query: BoardQuery },
    response: Leaderboard,
    errors: [404],
  });
  api.get('/leaderboard/:problem_name', auth, async (c) => {
    const { problem_name } = parseParams(c, ProblemParam);
    const q = parseQuery(c, BoardQuery);
    return c.json(
      Leaderboard.parse(
        await leaderboardFor(ctx, problem_name, { limit: q.limit ?? DEFAULT_LEADERBOARD_LIMIT, device: q.device }),
      ),
    );
  });
}
