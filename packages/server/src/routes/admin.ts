// Superuser views of the platform: the mail outbox (mails kept when SMTP is not configured).
import { OutboxMail, PageParams, listOf } from '@kernelforge/sdk';
import type { Hono } from 'hono';
import type { AppContext } from '../context.js';
import { type AppEnv, userGuards } from '../http/auth.js';
import { routeTable } from '../http/route.js';

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
}
