// Agent-session routes (spec section 7): thin handlers over services/sessions.ts.
import {
  AgentSession,
  AgentSessionSummary,
  CreateCustomSessionRequest,
  CreateSessionRequest,
  GenerationAttempt,
  ListAllSessionsParams,
  ListSessionsParams,
  Message,
  NewAttemptsRequest,
  NewAttemptsResponse,
  UpdateSessionRequest,
  listOf,
  Text,
} from '@kernelforge/sdk';
import type { Hono } from 'hono';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { type AppEnv, currentUser, requireSuperuser, requireUser } from '../http/auth.js';
import { registerRoute } from '../http/openapi.js';
import { parseJson, parseParams, parseQuery } from '../http/validate.js';
import { SessionJsonCache, sessionJson } from '../sessions/session-json.js';
import {
  bestAttemptOf,
  createCustomSession,
  createSession,
  deleteSession,
  listSessions,
  newAttempts,
  restoreSession,
  stopSession,
  updateSession,
} from '../services/sessions.js';

const SessionList = listOf(AgentSessionSummary);
const IdParam = z.object({ id: Text.max(100) });
export const SESSION_PAGE_SIZE = 50;

export function mountSessionRoutes(api: Hono<AppEnv>, ctx: AppContext): void {
  // Per process: each replica checks the rows' versions in the shared database before reusing a rendering.
  const sessionBodies = new SessionJsonCache();
  const auth = requireUser(ctx);
  const tags = ['agent-session'];

  // Static paths first: /all and /custom must not be taken for an {id}.
  registerRoute({
    method: 'get',
    path: '/api/v1/agent-session/all',
    summary: 'Every session (superusers), filtered by owner_id and problem_name',
    tags,
    auth: 'superuser',
    request: { query: ListAllSessionsParams },
    response: SessionList,
  });
  api.get('/agent-session/all', requireSuperuser(ctx), async (c) => {
    const q = parseQuery(c, ListAllSessionsParams);
    const page = { limit: q.limit ?? SESSION_PAGE_SIZE, offset: q.offset ?? 0 };
    const filter = { ownerId: q.owner_id, problemName: q.problem_name, includeDeleted: q.include_deleted };
    return c.json(SessionList.parse(await listSessions(ctx, filter, page)));
  });

  registerRoute({
    method: 'post',
    path: '/api/v1/agent-session/custom',
    summary: 'Start a session on your own reference',
    tags,
    auth: 'user',
    request: { body: CreateCustomSessionRequest },
    response: AgentSession,
    status: 201,
    errors: [429],
  });
  api.post('/agent-session/custom', auth, async (c) => {
    const body = await parseJson(c, CreateCustomSessionRequest);
    return c.json(AgentSession.parse(await createCustomSession(ctx, currentUser(c), body)), 201);
  });

  registerRoute({
    method: 'post',
    path: '/api/v1/agent-session',
    summary: 'Start an agent session on a catalogue problem',
    tags,
    auth: 'user',
    request: { body: CreateSessionRequest },
    response: AgentSession,
    status: 201,
    errors: [404, 429],
  });
  api.post('/agent-session', auth, async (c) => {
    const body = await parseJson(c, CreateSessionRequest);
    return c.json(AgentSession.parse(await createSession(ctx, currentUser(c), body)), 201);
  });

  registerRoute({
    method: 'get',
    path: '/api/v1/agent-session',
    summary: "The caller's sessions, newest first",
    tags,
    auth: 'user',
    request: { query: ListSessionsParams },
    response: SessionList,
  });
  api.get('/agent-session', auth, async (c) => {
    const q = parseQuery(c, ListSessionsParams);
    const page = { limit: q.limit ?? SESSION_PAGE_SIZE, offset: q.offset ?? 0 };
    const filter = { ownerId: currentUser(c).id, includeDeleted: q.include_deleted };
    return c.json(SessionList.parse(await listSessions(ctx, filter, page)));
  });

  registerRoute({
    method: 'get',
    path: '/api/v1/agent-session/{id}',
    summary: 'A session with its attempts, instructions and best attempt',
    tags,
    auth: 'user',
    request: { params: IdParam },
    response: AgentSession,
    errors: [404],
  });
  api.get('/agent-session/:id', auth, async (c) => {
    const { id } = parseParams(c, IdParam);
    // The most-read route (the web polls it, the CLI watches it): assembled by Postgres, not parsed and re-serialised
    // here. test/product/session-read.test.ts holds it to AgentSession and to getSession's shape.
    const body = await sessionJson(ctx.db, sessionBodies, currentUser(c), id);
    return c.body(body, 200, { 'Content-Type': 'application/json' });
  });

  registerRoute({
    method: 'patch',
    path: '/api/v1/agent-session/{id}',
    summary: 'Rename or relabel a session',
    tags,
    auth: 'user',
    request: { params: IdParam, body: UpdateSessionRequest },
    response: AgentSession,
    errors: [404],
  });
  api.patch('/agent-session/:id', auth, async (c) => {
    const { id } = parseParams(c, IdParam);
    const body = await parseJson(c, UpdateSessionRequest);
    return c.json(AgentSession.parse(await updateSession(ctx, currentUser(c), id, body)));
  });

  registerRoute({
    method: 'delete',
    path: '/api/v1/agent-session/{id}',
    summary: 'Soft-delete a session (stops its work; restore brings it back)',
    tags,
    auth: 'user',
    request: { params: IdParam },
    response: Message,
    errors: [404],
  });
  api.delete('/agent-session/:id', auth, async (c) => {
    const { id } = parseParams(c, IdParam);
    await deleteSession(ctx, currentUser(c), id);
    return c.json(Message.parse({ message: 'Session deleted' }));
  });

  registerRoute({
    method: 'post',
    path: '/api/v1/agent-session/{id}/restore',
    summary: 'Restore a deleted session',
    tags,
    auth: 'user',
    request: { params: IdParam },
    response: AgentSession,
    errors: [404],
  });
  api.post('/agent-session/:id/restore', auth, async (c) => {
    const { id } = parseParams(c, IdParam);
    return c.json(AgentSession.parse(await restoreSession(ctx, currentUser(c), id)));
  });

  registerRoute({
    method: 'post',
    path: '/api/v1/agent-session/{id}/stop',
    summary: 'Stop a session now; evaluated attempts stay',
    tags,
    auth: 'user',
    request: { params: IdParam },
    response: AgentSession,
    errors: [404],
  });
  api.post('/agent-session/:id/stop', auth, async (c) => {
    const { id } = parseParams(c, IdParam);
    return c.json(AgentSession.parse(await stopSession(ctx, currentUser(c), id)));
  });

  registerRoute({
    method: 'get',
    path: '/api/v1/agent-session/{id}/best-attempt',
    summary: 'The best attempt (spec rule)',
    tags,
    auth: 'user',
    request: { params: IdParam },
    response: GenerationAttempt,
    errors: [404],
  });
  api.get('/agent-session/:id/best-attempt', auth, async (c) => {
    const { id } = parseParams(c, IdParam);
    return c.json(GenerationAttempt.parse(await bestAttemptOf(ctx, currentUser(c), id)));
  });

  registerRoute({
    method: 'post',
    path: '/api/v1/agent-session/{id}/attempt',
    summary: 'A new instruction and its round of attempts',
    tags,
    auth: 'user',
    request: { params: IdParam, body: NewAttemptsRequest },
    response: NewAttemptsResponse,
    status: 201,
    errors: [404, 409, 429],
  });
  api.post('/agent-session/:id/attempt', auth, async (c) => {
    const { id } = parseParams(c, IdParam);
    const body = await parseJson(c, NewAttemptsRequest);
    return c.json(NewAttemptsResponse.parse(await newAttempts(ctx, currentUser(c), id, body)), 201);
  });
}
