// API tokens and the superuser's views.
import { z } from 'zod';
import { type HttpClient, path, type RequestOptions } from '../core/http.js';
import { listOf, Message } from '../schemas/common.js';
import { NoticeList } from '../schemas/notice.js';
import { type ReviewDecision, ReviewItem } from '../schemas/leaderboard.js';
import {
  ApiToken,
  type CreateApiTokenRequest,
  CreatedApiToken,
  AdminStatus,
  OutboxMail,
  type ChangeEmailRequest,
  type DeleteMeRequest,
  type SetPasswordRequest,
  type UpdateMeRequest,
  type UpdateUserRequest,
  User,
} from '../schemas/user.js';

export class TokensResource {
  constructor(private readonly http: HttpClient) {}

  /** GET /api/v1/tokens */
  list(options?: RequestOptions) {
    return this.http.request({ ...options, method: 'GET', path: '/tokens', schema: listOf(ApiToken) });
  }

  /** POST /api/v1/tokens: the response is the only time the token itself is shown. */
  create(body: CreateApiTokenRequest, options?: RequestOptions) {
    return this.http.request({ ...options, method: 'POST', path: '/tokens', json: body, schema: CreatedApiToken });
  }

  /** DELETE /api/v1/tokens/{id} */
  revoke(id: string, options?: RequestOptions) {
    return this.http.request({ ...options, method: 'DELETE', path: path`/tokens/${id}`, schema: z.unknown() });
  }
}

export class UsersResource {
  constructor(private readonly http: HttpClient) {}

  /** PATCH /api/v1/users/me: the signed-in user's display name. */
  updateMe(body: UpdateMeRequest, options?: RequestOptions) {
    return this.http.request({ ...options, method: 'PATCH', path: '/users/me', json: body, schema: User });
  }

  /**
   * PUT /api/v1/users/me/password: set a first password (accounts made by mail link or Google) or change it, giving
   * the current one. Needs a signed-in session: API tokens are refused.
   */
  setPassword(body: SetPasswordRequest, options?: RequestOptions) {
    return this.http.request({ ...options, method: 'PUT', path: '/users/me/password', json: body, schema: Message });
  }

  /** POST /api/v1/users/me/email: mail a confirmation link to a new address (nothing changes until it is used). */
  changeEmail(body: ChangeEmailRequest, options?: RequestOptions) {
    return this.http.request({ ...options, method: 'POST', path: '/users/me/email', json: body, schema: Message });
  }

  /** POST /api/v1/users/me/email/confirm: the link's token; answers the user with the new address. */
  confirmEmail(token: string, options?: RequestOptions) {
    return this.http.request({
      ...options,
      method: 'POST',
      path: '/users/me/email/confirm',
      json: { token },
      schema: User,
    });
  }

  /** DELETE /api/v1/users/me: delete the account at once (confirm: its email or "delete"); see docs/api.md. */
  deleteMe(body: DeleteMeRequest, options?: RequestOptions) {
    return this.http.request({ ...options, method: 'DELETE', path: '/users/me', json: body, schema: z.unknown() });
  }

  /** GET /api/v1/users/me/notices: what happened to the caller's results lately (finished, flagged, approved). */
  notices(options?: RequestOptions) {
    return this.http.request({ ...options, method: 'GET', path: '/users/me/notices', schema: NoticeList });
  }
}

export class AdminResource {
  constructor(private readonly http: HttpClient) {}

  /** GET /api/v1/admin/outbox: mails kept when no SMTP server is configured (superusers). */
  outbox(options?: RequestOptions) {
    return this.http.request({ ...options, method: 'GET', path: '/admin/outbox', schema: listOf(OutboxMail) });
  }

  /** GET /api/v1/users: every user (superusers), for the owner filter; `q` searches email and names. */
  users(params: { limit?: number; offset?: number; q?: string } = {}, options?: RequestOptions) {
    return this.http.request({ ...options, method: 'GET', path: '/users', query: params, schema: listOf(User) });
  }

  /** PATCH /api/v1/users/{id}: make or unmake a superuser, deactivate or reactivate (superusers). */
  updateUser(id: string, body: UpdateUserRequest, options?: RequestOptions) {
    return this.http.request({ ...options, method: 'PATCH', path: path`/users/${id}`, json: body, schema: User });
  }

  /** GET /api/v1/admin/reviews: results flagged for review, pending or decided (superusers). */
  reviews(params: { status?: 'pending' | 'decided'; limit?: number; offset?: number } = {}, options?: RequestOptions) {
    return this.http.request({
      ...options,
      method: 'GET',
      path: '/admin/reviews',
      query: params,
      schema: listOf(ReviewItem),
    });
  }

  /** POST /api/v1/admin/reviews/{id}: approve into the ranking, or reject with a reason (superusers). */
  review(id: string, body: ReviewDecision, options?: RequestOptions) {
    return this.http.request({
      ...options,
      method: 'POST',
      path: path`/admin/reviews/${id}`,
      json: body,
      schema: ReviewItem,
    });
  }

  /** GET /api/v1/admin/status: runners, devices, queue depth and jobs in flight (superusers). */
  status(options?: RequestOptions) {
    return this.http.request({ ...options, method: 'GET', path: '/admin/status', schema: AdminStatus });
  }

  /** POST /api/v1/admin/jobs/{id}/cancel: cancel a job in flight and stop the work it belongs to (superusers). */
  cancelJob(id: string, options?: RequestOptions) {
    return this.http.request({ ...options, method: 'POST', path: path`/admin/jobs/${id}/cancel`, schema: Message });
  }
}
