// Superuser views of the platform: the mail outbox (mails kept when SMTP is not configured); runners, devices and the
// job queue; the review queue of flagged results.
import {
  AdminStatus,
  OutboxMail,
  PageParams,
  ReviewDecision,
  ReviewItem,
  Message,
  ReviewListParams,
  Text,
  listOf,
} from '@kernelforge/sdk';
import { z } from 'zod';
import type { Hono } from 'hono';
import type { AppContext } from '../context.js';
import { type AppEnv, currentUser, userGuards } from '../http/auth.js';
import { routeTable } from '../http/route.js';
import { cancelJobAsAdmin, jobsInFlight } from '../services/admin-jobs.js';
import { decideReview, listReviews } from '../services/reviews.js';

const OutboxList = listOf(OutboxMail);

export function mountAdminRoutes(api: Hono<AppEnv>, ctx: AppContext): void {
  const route = routeTable(api, '/api/v1', userGuards(ctx));
  route(
    {
      method: 'get',
      path: '/admin/outbox',
      summary: 'Mails kept in the outbox, newest first (superusers)',
      auth: 'superuser',
      query: PageParams,
      response: OutboxList,
    },
    async (_c, { query: q }) => {
      const rows = await ctx.db.query<{
        id: string;
        to_address: string;
        subject: string;
        text_body: string;
        created_at: Date;
      }>(
        'SELECT id, to_address, subject, text_body, created_at FROM outbox ORDER BY created_at DESC, id LIMIT $1 OFFSET $2',
        [q.limit ?? 50, q.offset ?? 0],
      );
      const count = await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM outbox');
      const data = rows.map((r) => ({
        id: r.id,
        to: r.to_address,
        subject: r.subject,
        text: r.text_body,
        created_at: new Date(r.created_at).toISOString(),
      }));
      return { data, count: count[0]?.n ?? 0 };
    },
  );

  route(
    {
      method: 'get',
      path: '/admin/reviews',
      summary: 'Accepted results flagged for review: pending (oldest first) or decided (newest first) (superusers)',
      auth: 'superuser',
      query: ReviewListParams,
      response: listOf(ReviewItem),
    },
    async (c, { query: q }) =>
      listReviews(ctx, currentUser(c), { status: q.status ?? 'pending', limit: q.limit ?? 50, offset: q.offset ?? 0 }),
  );

  route(
    {
      method: 'post',
      path: '/admin/reviews/{id}',
      summary: 'Approve a flagged result into the ranking, or reject it (a reason required); the decision is kept',
      auth: 'superuser',
      params: z.object({ id: Text.max(100) }),
      body: ReviewDecision,
      response: ReviewItem,
    },
    async (c, { params, body }) => decideReview(ctx, currentUser(c), params.id, body),
  );

  route(
    {
      method: 'post',
      path: '/admin/jobs/{id}/cancel',
      summary: 'Cancel a queued or running job and stop the work it belongs to (superusers)',
      auth: 'superuser',
      params: z.object({ id: Text.max(100) }),
      response: Message,
      errors: [404, 409],
    },
    async (c, { params }) => cancelJobAsAdmin(ctx, currentUser(c), params.id),
  );

  route(
    {
      method: 'get',
      path: '/admin/status',
      summary: 'Runners, devices, the job queue by kind and status, and the jobs in flight (superusers)',
      auth: 'superuser',
      response: AdminStatus,
    },
    async () => {
      const runners = await ctx.db.query<{
        id: string;
        name: string;
        local: boolean;
        version: string | null;
        devices: { id: string }[];
        last_seen_at: Date;
      }>(
        // Live runners only: one silent for KFORGE_RUNNER_DEAD_HEARTBEATS heartbeats is dead (its jobs re-queued).
        `SELECT id, name, local, version, devices, last_seen_at FROM runners
         WHERE last_seen_at > now() - make_interval(secs => $1) ORDER BY last_seen_at DESC LIMIT 100`,
        [ctx.config.runner.deadSeconds],
      );
      const queue = await ctx.db.query<{ kind: string; status: string; count: number }>(
        `SELECT kind, status, count(*)::int AS count FROM jobs WHERE status IN ('queued', 'leased', 'dead')
         GROUP BY kind, status ORDER BY kind, status`,
      );
      const inFlight = await jobsInFlight(ctx.db);
      const devices = await ctx.devices.list();
      return {
        runners: runners.map((r) => ({
          id: r.id,
          name: r.name,
          local: r.local,
          version: r.version,
          devices: Array.isArray(r.devices) ? r.devices.map((d) => d.id) : [],
          last_seen_at: new Date(r.last_seen_at).toISOString(),
        })),
        devices: devices.map((d) => ({ id: d.id, kind: d.kind, available: d.available, runners: d.runners ?? 0 })),
        queue,
        in_flight: inFlight,
      };
    },
  );
}
