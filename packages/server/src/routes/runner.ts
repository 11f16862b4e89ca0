// The runner API: standalone `kforge-runner` processes register, long-poll for evaluate jobs, heartbeat and post results.
import { timingSafeEqual } from 'node:crypto';
import {
  ClaimedJob,
  Message,
  RunnerClaimRequest,
  RunnerClaimResponse,
  RunnerDeregisterRequest,
  RunnerHeartbeatRequest,
  RunnerHeartbeatResponse,
  RunnerRegisterRequest,
  RunnerRegisterResponse,
  RunnerResultRequest,
  Text,
} from '@kernelforge/sdk';
import type { Context, Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import type { AppEnv } from '../http/auth.js';
import { HttpError } from '../http/errors.js';
import { routeTable } from '../http/route.js';
import { heartbeatJob } from '../jobs/queue.js';
import type { Job } from '../jobs/types.js';
import { claimEvaluation, recordEvaluation } from '../domain/evaluation/results.js';
import { isUuid } from '../domain/sessions/queries.js';

const JobParam = z.object({ id: Text.max(100) });

/** Runner tokens: the configured KFORGE_RUNNER_TOKEN only; without one the runner API refuses everyone. */
function requireRunner(ctx: AppContext) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const expected = ctx.config.runnerToken;
    const given = /^Bearer\s+(.+)$/i.exec(c.req.header('Authorization')?.trim() ?? '')?.[1]?.trim() ?? '';
    const ok =
      expected !== null &&
      given.length === expected.length &&
      timingSafeEqual(Buffer.from(given), Buffer.from(expected));
    if (!ok) throw new HttpError(401, 'Invalid runner token', { 'WWW-Authenticate': 'Bearer' });
    await next();
  });
}

async function touchRunner(ctx: AppContext, runnerId: string): Promise<void> {
  const rows = isUuid(runnerId)
    ? await ctx.db.query('UPDATE runners SET last_seen_at = now() WHERE id = $1 RETURNING id', [runnerId])
    : [];
  // The runner loop re-registers on 404 (e.g. after the database was reset).
  if (rows.length === 0) throw new HttpError(404, 'Runner not found; register again');
}

function toClaimed(job: Job): ClaimedJob {
  return ClaimedJob.parse({
    job_id: job.id,
    lease_token: job.lease_token,
    lease_expires_at: new Date(job.lease_expires_at as Date).toISOString(),
    attempt: job.attempts,
    payload: job.payload,
  });
}

/**
 * Claims one job, waiting up to wait_ms for one to appear (long poll); gives up early if the client leaves. A runner
 * waiting here is alive: it is marked seen every heartbeat interval, so a long poll never makes it look silent.
 */
async function claimWithWait(ctx: AppContext, c: Context, req: RunnerClaimRequest): Promise<Job | null> {
  const deadline = Date.now() + req.wait_ms;
  const gone = c.req.raw.signal;
  let seen = Date.now();
  for (;;) {
    if (ctx.signals.closed) return null;
    if (Date.now() - seen >= ctx.config.runner.heartbeatSeconds * 1000) {
      seen = Date.now();
      await touchRunner(ctx, req.runner_id);
    }
    const job = await claimEvaluation(ctx, {
      devices: req.devices,
      runnerId: req.runner_id,
      leaseSeconds: ctx.config.jobs.leaseSeconds,
    });
    const left = deadline - Date.now();
    if (job || left <= 0 || gone.aborted || ctx.signals.closed) return job;
    await ctx.signals.wait(Math.min(left, 1000), gone);
  }
}

export function mountRunnerRoutes(api: Hono<AppEnv>, ctx: AppContext): void {
  const route = routeTable(api, '/api/v1', { runner: requireRunner(ctx) });
  const tags = ['runner'];

  route(
    {
      method: 'post',
      path: '/runner/register',
      summary: 'Register a runner and the devices it serves',
      tags,
      auth: 'runner',
      body: RunnerRegisterRequest,
      response: RunnerRegisterResponse,
    },
    async (_c, { body }) => {
      const rows = await ctx.db.query<{ id: string }>(
        'INSERT INTO runners (name, devices, version) VALUES ($1, $2, $3) RETURNING id',
        [body.name, JSON.stringify(body.devices), body.version ?? null],
      );
      const lease = ctx.config.jobs.leaseSeconds;
      return {
        runner_id: rows[0]?.id as string,
        lease_seconds: lease,
        // KFORGE_RUNNER_HEARTBEAT_SECONDS (10 s), or a third of the lease if shorter: silent for
        // KFORGE_RUNNER_DEAD_HEARTBEATS of these, the runner is dead and its job re-queued.
        heartbeat_seconds: ctx.config.runner.heartbeatSeconds,
      };
    },
  );

  route(
    {
      method: 'post',
      path: '/runner/deregister',
      summary: 'A runner leaves on purpose (drained, or done with its one job); jobs it still leases are re-leased',
      tags,
      auth: 'runner',
      body: RunnerDeregisterRequest,
      response: Message,
      errors: [404],
    },
    async (_c, { body }) => {
      if (!isUuid(body.runner_id)) throw new HttpError(404, 'Runner not found');
      const rows = await ctx.db.transaction(async (tx) => {
        // A lease it still holds (a runner stopped mid-job) expires now: the reaper hands the job on at its next pass.
        await tx.query(
          "UPDATE jobs SET lease_expires_at = now() WHERE status = 'leased' AND runner_id = $1 AND lease_expires_at > now()",
          [body.runner_id],
        );
        return tx.query('DELETE FROM runners WHERE id = $1 AND NOT local RETURNING id', [body.runner_id]);
      });
      if (rows.length === 0) throw new HttpError(404, 'Runner not found');
      return { message: 'Runner deregistered' };
    },
  );

  route(
    {
      method: 'post',
      path: '/runner/claim',
      summary: 'Lease the next evaluate job for these devices (long poll)',
      tags,
      auth: 'runner',
      body: RunnerClaimRequest,
      response: RunnerClaimResponse,
      errors: [404],
    },
    async (c, { body }) => {
      await touchRunner(ctx, body.runner_id);
      const job = await claimWithWait(ctx, c, body);
      return { job: job ? toClaimed(job) : null };
    },
  );

  route(
    {
      method: 'post',
      path: '/runner/jobs/{id}/heartbeat',
      summary: "Extend a job's lease, with the evaluation's progress; 409 when it was lost",
      tags,
      auth: 'runner',
      params: JobParam,
      body: RunnerHeartbeatRequest,
      response: RunnerHeartbeatResponse,
      errors: [404, 409],
    },
    async (_c, { params: { id }, body }) => {
      await touchRunner(ctx, body.runner_id);
      const until = isUuid(id)
        ? await heartbeatJob(ctx.db, id, body.lease_token, ctx.config.jobs.leaseSeconds, body.progress)
        : null;
      if (!until) throw new HttpError(409, 'Lease lost: the job was requeued, cancelled or finished');
      return { lease_expires_at: until.toISOString() };
    },
  );

  route(
    {
      method: 'post',
      path: '/runner/jobs/{id}/result',
      summary: "Report a job's evaluation (or an infrastructure error)",
      tags,
      auth: 'runner',
      params: JobParam,
      body: RunnerResultRequest,
      response: Message,
      errors: [404, 409],
    },
    async (_c, { params: { id }, body }) => {
      await touchRunner(ctx, body.runner_id);
      if (!body.evaluation_state && body.error === undefined) {
        throw new HttpError(422, [
          { loc: ['body'], msg: 'Either evaluation_state or error is required', type: 'value_error' },
        ]);
      }
      const report = body.evaluation_state
        ? { state: body.evaluation_state }
        : { error: body.error ?? 'unknown error' };
      const outcome = isUuid(id) ? await recordEvaluation(ctx, id, body.lease_token, report) : 'lost';
      if (outcome === 'lost') throw new HttpError(409, 'Lease lost: the job was requeued, cancelled or finished');
      return { message: outcome === 'recorded' ? 'Result recorded' : `Error recorded (${outcome})` };
    },
  );
}
