// Agent sessions and their instructions (spec section 7), plus the live event stream.
import { z } from 'zod';
import { type HttpClient, path, type RequestOptions } from '../core/http.js';
import { PAGE_SIZE, PagePromise } from '../core/pagination.js';
import { reconnectingEventStream } from '../core/sse.js';
import { listOf } from '../schemas/common.js';
import { EventTicket, SessionEvent } from '../schemas/events.js';
import {
  AgentSession,
  AgentSessionSummary,
  type CreateCustomSessionRequest,
  type CreateSessionRequest,
  GenerationAttempt,
  type ListAllSessionsParams,
  type ListSessionsParams,
  type NewAttemptsRequest,
  NewAttemptsResponse,
  SessionProgress,
  type UpdateInstructionRequest,
  type UpdateSessionRequest,
  UserInstruction,
} from '../schemas/session.js';

const SessionList = listOf(AgentSessionSummary);

export interface SessionEventMessage {
  /** The event id, for resuming with Last-Event-ID. */
  id: string | undefined;
  event: SessionEvent;
}

export class SessionsResource {
  constructor(private readonly http: HttpClient) {}

  /** POST /api/v1/agent-session */
  create(body: CreateSessionRequest, options?: RequestOptions) {
    return this.http.request({ ...options, method: 'POST', path: '/agent-session', json: body, schema: AgentSession });
  }

  /** POST /api/v1/agent-session/custom */
  createCustom(body: CreateCustomSessionRequest, options?: RequestOptions) {
    return this.http.request({
      ...options,
      method: 'POST',
      path: '/agent-session/custom',
      json: body,
      schema: AgentSession,
    });
  }

  /** GET /api/v1/agent-session: the caller's sessions, 50 a page; `for await` walks them all. */
  list(params: ListSessionsParams = {}, options?: RequestOptions) {
    return new PagePromise(
      (offset, limit) =>
        this.http.request({
          ...options,
          method: 'GET',
          path: '/agent-session',
          query: { ...params, limit, offset },
          schema: SessionList,
        }),
      params.offset ?? 0,
      params.limit ?? PAGE_SIZE,
    );
  }

  /** GET /api/v1/agent-session/all (superusers), filtered by owner_id and problem_name. */
  listAll(params: ListAllSessionsParams = {}, options?: RequestOptions) {
    return new PagePromise(
      (offset, limit) =>
        this.http.request({
          ...options,
          method: 'GET',
          path: '/agent-session/all',
          query: { ...params, limit, offset },
          schema: SessionList,
        }),
      params.offset ?? 0,
      params.limit ?? PAGE_SIZE,
    );
  }

  /** GET /api/v1/agent-session/{id} */
  get(id: string, options?: RequestOptions) {
    return this.http.request({ ...options, method: 'GET', path: path`/agent-session/${id}`, schema: AgentSession });
  }

  /** PATCH /api/v1/agent-session/{id} {name?, label?} */
  update(id: string, body: UpdateSessionRequest, options?: RequestOptions) {
    return this.http.request({
      ...options,
      method: 'PATCH',
      path: path`/agent-session/${id}`,
      json: body,
      schema: AgentSession,
    });
  }

  /** DELETE /api/v1/agent-session/{id} (soft; restore brings it back). */
  delete(id: string, options?: RequestOptions) {
    return this.http.request({
      ...options,
      method: 'DELETE',
      path: path`/agent-session/${id}`,
      schema: z.unknown(),
    });
  }

  /** POST /api/v1/agent-session/{id}/restore */
  restore(id: string, options?: RequestOptions) {
    return this.http.request({
      ...options,
      method: 'POST',
      path: path`/agent-session/${id}/restore`,
      schema: AgentSession,
    });
  }

  /** POST /api/v1/agent-session/{id}/stop */
  stop(id: string, options?: RequestOptions) {
    return this.http.request({
      ...options,
      method: 'POST',
      path: path`/agent-session/${id}/stop`,
      schema: AgentSession,
    });
  }

  /** GET /api/v1/agent-session/{id}/progress: the current attempt's queue position and time estimate. */
  progress(id: string, options?: RequestOptions) {
    return this.http.request({
      ...options,
      method: 'GET',
      path: path`/agent-session/${id}/progress`,
      schema: SessionProgress,
    });
  }

  /** GET /api/v1/agent-session/{id}/best-attempt */
  bestAttempt(id: string, options?: RequestOptions) {
    return this.http.request({
      ...options,
      method: 'GET',
      path: path`/agent-session/${id}/best-attempt`,
      schema: GenerationAttempt,
    });
  }

  /** POST /api/v1/agent-session/{id}/attempt: a new instruction and its round of attempts. */
  createAttempts(id: string, body: NewAttemptsRequest, options?: RequestOptions) {
    return this.http.request({
      ...options,
      method: 'POST',
      path: path`/agent-session/${id}/attempt`,
      json: body,
      schema: NewAttemptsResponse,
    });
  }

  /**
   * POST /api/v1/agent-session/{id}/events/ticket: a single-use ticket, valid for a minute, to open the event stream
   * without an Authorization header. Prefer `events()`, which sends the header; this is for the browser's EventSource.
   */
  eventTicket(id: string, options?: RequestOptions) {
    return this.http.request({
      ...options,
      method: 'POST',
      path: path`/agent-session/${id}/events/ticket`,
      schema: EventTicket,
    });
  }

  /** The URL an `EventSource` can open: a fresh ticket in the query, never the bearer token. */
  async eventSourceUrl(id: string, options?: RequestOptions): Promise<string> {
    const { ticket } = await this.eventTicket(id, options);
    return this.http.url(path`/agent-session/${id}/events`, { ticket });
  }

  /**
   * GET /api/v1/agent-session/{id}/events: live events, reconnecting with Last-Event-ID until `signal` aborts.
   * Messages that do not match the contract are skipped, so an older client survives a newer server.
   */
  async *events(
    id: string,
    options: { signal?: AbortSignal; lastEventId?: string; reconnectDelayMs?: number; onOpen?: () => void } = {},
  ): AsyncGenerator<SessionEventMessage> {
    const stream = reconnectingEventStream({
      ...options,
      open: (lastEventId) =>
        this.http.stream(path`/agent-session/${id}/events`, {
          ...(lastEventId ? { headers: { 'last-event-id': lastEventId } } : {}),
          ...(options.signal ? { signal: options.signal } : {}),
        }),
    });
    for await (const message of stream) {
      let data: unknown;
      try {
        data = JSON.parse(message.data);
      } catch {
        continue;
      }
      const parsed = SessionEvent.safeParse(data);
      if (parsed.success) yield { id: message.id, event: parsed.data };
    }
  }
}

export class InstructionsResource {
  constructor(private readonly http: HttpClient) {}

  /** PATCH /api/v1/agent-session/instruction/{id} {name} */
  update(id: string, body: UpdateInstructionRequest, options?: RequestOptions) {
    return this.http.request({
      ...options,
      method: 'PATCH',
      path: path`/agent-session/instruction/${id}`,
      json: body,
      schema: UserInstruction,
    });
  }

  /** DELETE /api/v1/agent-session/instruction/{id}: stops it and hides it; its attempts stay. */
  delete(id: string, options?: RequestOptions) {
    return this.http.request({
      ...options,
      method: 'DELETE',
      path: path`/agent-session/instruction/${id}`,
      schema: z.unknown(),
    });
  }

  /** POST /api/v1/agent-session/instruction/{id}/restore */
  restore(id: string, options?: RequestOptions) {
    return this.#post(id, 'restore', options);
  }

  /** POST /api/v1/agent-session/instruction/{id}/stop */
  stop(id: string, options?: RequestOptions) {
    return this.#post(id, 'stop', options);
  }

  /** POST /api/v1/agent-session/instruction/{id}/star */
  star(id: string, options?: RequestOptions) {
    return this.#post(id, 'star', options);
  }

  /** DELETE /api/v1/agent-session/instruction/{id}/star */
  unstar(id: string, options?: RequestOptions) {
    return this.http.request({
      ...options,
      method: 'DELETE',
      path: path`/agent-session/instruction/${id}/star`,
      schema: UserInstruction,
    });
  }

  #post(id: string, action: string, options?: RequestOptions) {
    return this.http.request({
      ...options,
      method: 'POST',
      path: path`/agent-session/instruction/${id}/${action}`,
      schema: UserInstruction,
    });
  }
}
