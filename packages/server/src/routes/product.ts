// Mounts every product route on the /api/v1 sub-app; static paths go before the `{id}` ones they would collide with.
import type { Hono } from 'hono';
import type { AppContext } from '../context.js';
import type { AppEnv } from '../http/auth.js';
import { registerQueueGauges } from '../jobs/metrics.js';
import { mountCatalogueRoutes } from './catalogue.js';
import { mountEventRoutes } from './events.js';
import { mountInstructionRoutes } from './instructions.js';
import { mountRunnerRoutes } from './runner.js';
import { mountSessionRoutes } from './sessions.js';
import { mountSubmissionRoutes } from './submissions.js';
import { mountSweepRoutes } from './sweeps.js';

/** Mounts the product API on the /api/v1 sub-app (paths relative to /api/v1), and its /metrics gauges. */
export function mountProductRoutes(api: Hono<AppEnv>, ctx: AppContext): void {
  mountCatalogueRoutes(api, ctx);
  mountInstructionRoutes(api, ctx);
  mountEventRoutes(api, ctx);
  mountSessionRoutes(api, ctx);
  mountSubmissionRoutes(api, ctx);
  mountSweepRoutes(api, ctx);
  mountRunnerRoutes(api, ctx);
  registerQueueGauges(ctx.metrics, {
    sql: ctx.db,
    staleSeconds: ctx.config.runner.staleSeconds,
    deadSeconds: ctx.config.runner.deadSeconds,
    devices: () => ctx.devices.list(),
  });
}
