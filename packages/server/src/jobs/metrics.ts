// Gauges of the job queue and the runners for /metrics, read from the database at scrape time (so every replica agrees).
import type { Metrics } from '../http/metrics.js';
import type { Sql } from '../db/sql.js';
import { countJobs } from './queue.js';
import { defineJobMetrics } from './telemetry.js';

const KINDS = ['generate', 'evaluate'] as const;
// Always reported, as 0 when empty, so a dashboard's queue-depth series never disappears.
const LIVE_STATUSES = ['queued', 'leased'] as const;

/** What the gauges read: the database, the runners' staleness window, and the device list (the caller's registry). */
export interface QueueGaugeSources {
  sql: Sql;
  staleSeconds: number;
  /** A runner silent this long is dead (KFORGE_RUNNER_DEAD_HEARTBEATS heartbeat intervals). */
  deadSeconds: number;
  devices: () => Promise<{ id: string; runners: number }[]>;
}

export function registerQueueGauges(metrics: Metrics, src: QueueGaugeSources): void {
  defineJobMetrics(metrics);
  metrics.registerGauge('kforge_jobs', 'Jobs by kind and status (queued = queue depth).', async () => {
    const counts = await countJobs(src.sql);
    const seen = new Set(counts.map((c) => `${c.kind}/${c.status}`));
    const zeros = KINDS.flatMap((kind) =>
      LIVE_STATUSES.filter((status) => !seen.has(`${kind}/${status}`)).map((status) => ({ kind, status, count: 0 })),
    );
    return [...counts, ...zeros].map((c) => ({ labels: { kind: c.kind, status: c.status }, value: c.count }));
  });

  metrics.registerGauge(
    'kforge_jobs_ready',
    'Queued jobs whose backoff has passed, by kind and device (what runners could claim now).',
    async () => {
      const rows = await src.sql.query<{ kind: string; device: string | null; n: number }>(
        `SELECT kind, device, count(*)::int AS n FROM jobs WHERE status = 'queued' AND run_after <= now()
         GROUP BY kind, device ORDER BY kind, device`,
      );
      return rows.map((r) => ({ labels: { kind: r.kind, device: r.device ?? '' }, value: r.n }));
    },
  );

  metrics.registerGauge(
    'kforge_runners',
    'Registered runners by freshness (seen within KFORGE_RUNNER_STALE_SECONDS, and not dead: silent for KFORGE_RUNNER_DEAD_HEARTBEATS heartbeats) and kind (in-process or standalone).',
    async () => {
      const rows = await src.sql.query<{ fresh: boolean; local: boolean; n: number }>(
        `SELECT last_seen_at > now() - make_interval(secs => $1) AS fresh, local, count(*)::int AS n
         FROM runners WHERE last_seen_at > now() - interval '7 days' GROUP BY 1, 2`,
        [Math.min(src.staleSeconds, src.deadSeconds)],
      );
      const out = [];
      for (const state of ['fresh', 'stale'] as const) {
        for (const kind of ['in-process', 'standalone'] as const) {
          const row = rows.find((r) => r.fresh === (state === 'fresh') && r.local === (kind === 'in-process'));
          out.push({ labels: { state, kind }, value: row?.n ?? 0 });
        }
      }
      return out;
    },
  );

  // Runners heard of in the last hour, dead ones included (an alert on the age sees them go silent).
  const lastSeen = () =>
    src.sql.query<{ id: string; name: string; local: boolean; at: number; age: number }>(
      `SELECT id::text AS id, name, local, extract(epoch FROM last_seen_at)::double precision AS at,
         extract(epoch FROM now() - last_seen_at)::double precision AS age
       FROM runners WHERE last_seen_at > now() - interval '1 hour' ORDER BY last_seen_at DESC LIMIT 200`,
    );
  const runnerLabels = (r: { id: string; name: string; local: boolean }) => ({
    runner_id: r.id,
    name: r.name,
    kind: r.local ? 'in-process' : 'standalone',
  });
  metrics.registerGauge(
    'kforge_runner_last_heartbeat_timestamp_seconds',
    'When each runner (heard of in the last hour) last claimed, beat or posted a result, as a Unix time.',
    async () => (await lastSeen()).map((r) => ({ labels: runnerLabels(r), value: Number(r.at) })),
  );
  metrics.registerGauge(
    'kforge_runner_heartbeat_age_seconds',
    'Seconds since each runner (heard of in the last hour) was last heard of; past KFORGE_RUNNER_DEAD_HEARTBEATS intervals it is dead.',
    async () => (await lastSeen()).map((r) => ({ labels: runnerLabels(r), value: Number(r.age) })),
  );

  metrics.registerGauge('kforge_device_runners', 'Runners serving each known device now.', async () =>
    (await src.devices()).map((d) => ({ labels: { device: d.id }, value: d.runners })),
  );
}
