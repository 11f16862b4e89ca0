// Prometheus metrics: requests and latency per route pattern, plus process memory; other modules add gauges, counters
// and histograms (jobs/metrics.ts: evaluations, retries, dead letters, lease expiries).
import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';

const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

interface Series {
  count: number;
  sum: number;
  buckets: number[];
}

/**
 * Routes whose time is mostly waiting by design (a runner's claim long-polls for up to 30 s): counted in
 * kforge_http_requests_total, kept out of the latency histogram, where they would drown every real request.
 */
export const LONG_POLL_ROUTES = new Set(['/api/v1/runner/claim']);

/** Seconds: an evaluation takes from a second (compile, check, quick timing) to many minutes. */
export const EVALUATION_BUCKETS = [1, 2.5, 5, 10, 20, 30, 60, 120, 300, 600, 1800];

type Labels = Record<string, string>;
const labelText = (labels: Labels) =>
  Object.entries(labels)
    .map(([k, v]) => `${k}="${esc(v)}"`)
    .join(',');

/** A gauge read when /metrics is scraped (e.g. queue depth); returns labelled values. */
export type GaugeReader = () => Promise<Array<{ labels?: Record<string, string>; value: number }>>;

export class Metrics {
  private readonly requests = new Map<string, number>();
  private readonly latency = new Map<string, Series>();
  private readonly gauges = new Map<string, { help: string; read: GaugeReader }>();
  private readonly counters = new Map<string, { help: string; values: Map<string, number> }>();
  private readonly histograms = new Map<string, { help: string; buckets: number[]; series: Map<string, Series> }>();

  /** Middleware recording each request under its route pattern (`/api/v1/tokens/:id`), never the raw path. */
  middleware(): MiddlewareHandler {
    return async (c, next) => {
      const started = performance.now();
      try {
        await next();
      } finally {
        // After next(), the current route index is the handler that answered (not the trailing static catch-all).
        let route = routePath(c);
        // Unmatched paths (static files, 404s) share one label so a scanner cannot blow up the series count.
        if (!route || route === '*' || route === '/*') route = 'other';
        const seconds = (performance.now() - started) / 1000;
        if (LONG_POLL_ROUTES.has(route)) this.count(c.req.method, route, c.res.status);
        else this.observe(c.req.method, route, c.res.status, seconds);
      }
    };
  }

  private count(method: string, route: string, status: number): void {
    const reqKey = `method="${method}",route="${esc(route)}",status="${status}"`;
    this.requests.set(reqKey, (this.requests.get(reqKey) ?? 0) + 1);
  }

  /** Declares a counter (shown as 0 until incremented only if `zero` labels are given). */
  defineCounter(name: string, help: string, zero: Labels[] = []): void {
    if (this.counters.has(name)) return;
    const values = new Map<string, number>();
    for (const l of zero) values.set(labelText(l), 0);
    this.counters.set(name, { help, values });
  }

  inc(name: string, labels: Labels = {}, by = 1): void {
    let c = this.counters.get(name);
    if (!c) {
      c = { help: name, values: new Map() };
      this.counters.set(name, c);
    }
    const key = labelText(labels);
    c.values.set(key, (c.values.get(key) ?? 0) + by);
  }

  defineHistogram(name: string, help: string, buckets: number[]): void {
    if (!this.histograms.has(name)) this.histograms.set(name, { help, buckets, series: new Map() });
  }

  /** One observation of a histogram declared with defineHistogram (an undeclared one is ignored). */
  observeValue(name: string, labels: Labels, value: number): void {
    const h = this.histograms.get(name);
    if (!h || !Number.isFinite(value)) return;
    const key = labelText(labels);
    let s = h.series.get(key);
    if (!s) {
      s = { count: 0, sum: 0, buckets: h.buckets.map(() => 0) };
      h.series.set(key, s);
    }
    s.count += 1;
    s.sum += value;
    h.buckets.forEach((b, i) => {
      if (value <= b) s.buckets[i] = (s.buckets[i] ?? 0) + 1;
    });
  }

  observe(method: string, route: string, status: number, seconds: number): void {
    this.count(method, route, status);
    const latKey = `method="${method}",route="${esc(route)}"`;
    let s = this.latency.get(latKey);
    if (!s) {
      s = { count: 0, sum: 0, buckets: BUCKETS.map(() => 0) };
      this.latency.set(latKey, s);
    }
    s.count += 1;
    s.sum += seconds;
    BUCKETS.forEach((b, i) => {
      if (seconds <= b) s.buckets[i] = (s.buckets[i] ?? 0) + 1;
    });
  }

  /** Registers (or replaces) a gauge named `name`, e.g. `kforge_jobs` with a `state` label. */
  registerGauge(name: string, help: string, read: GaugeReader): void {
    this.gauges.set(name, { help, read });
  }

  async render(): Promise<string> {
    const out: string[] = [];
    out.push('# HELP kforge_http_requests_total HTTP requests by route pattern and status.');
    out.push('# TYPE kforge_http_requests_total counter');
    for (const [k, v] of this.requests) out.push(`kforge_http_requests_total{${k}} ${v}`);
    out.push('# HELP kforge_http_request_duration_seconds HTTP request latency by route pattern.');
    out.push('# TYPE kforge_http_request_duration_seconds histogram');
    for (const [k, s] of this.latency) {
      for (const [i, b] of BUCKETS.entries()) {
        out.push(`kforge_http_request_duration_seconds_bucket{${k},le="${b}"} ${s.buckets[i]}`);
      }
      out.push(`kforge_http_request_duration_seconds_bucket{${k},le="+Inf"} ${s.count}`);
      out.push(`kforge_http_request_duration_seconds_sum{${k}} ${s.sum}`);
      out.push(`kforge_http_request_duration_seconds_count{${k}} ${s.count}`);
    }
    const mem = process.memoryUsage();
    out.push('# HELP kforge_process_memory_bytes Process memory by kind.');
    out.push('# TYPE kforge_process_memory_bytes gauge');
    for (const kind of ['rss', 'heapUsed', 'heapTotal', 'external'] as const) {
      out.push(`kforge_process_memory_bytes{kind="${kind}"} ${mem[kind]}`);
    }
    out.push('# HELP kforge_process_uptime_seconds Seconds since the process started.');
    out.push('# TYPE kforge_process_uptime_seconds gauge');
    out.push(`kforge_process_uptime_seconds ${process.uptime()}`);
    for (const [name, c] of this.counters) {
      out.push(`# HELP ${name} ${c.help}`);
      out.push(`# TYPE ${name} counter`);
      for (const [k, v] of c.values) out.push(`${name}${k ? `{${k}}` : ''} ${v}`);
    }
    for (const [name, h] of this.histograms) {
      out.push(`# HELP ${name} ${h.help}`);
      out.push(`# TYPE ${name} histogram`);
      for (const [k, s] of h.series) {
        const pre = k ? `${k},` : '';
        for (const [i, b] of h.buckets.entries()) out.push(`${name}_bucket{${pre}le="${b}"} ${s.buckets[i]}`);
        out.push(`${name}_bucket{${pre}le="+Inf"} ${s.count}`);
        out.push(`${name}_sum${k ? `{${k}}` : ''} ${s.sum}`);
        out.push(`${name}_count${k ? `{${k}}` : ''} ${s.count}`);
      }
    }
    for (const [name, g] of this.gauges) {
      out.push(`# HELP ${name} ${g.help}`);
      out.push(`# TYPE ${name} gauge`);
      try {
        for (const v of await g.read()) {
          const labels = Object.entries(v.labels ?? {})
            .map(([k, val]) => `${k}="${esc(val)}"`)
            .join(',');
          out.push(`${name}${labels ? `{${labels}}` : ''} ${v.value}`);
        }
      } catch {
        // A failing gauge (database down) must not take the whole scrape with it.
      }
    }
    return `${out.join('\n')}\n`;
  }
}

const esc = (s: string) => s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
