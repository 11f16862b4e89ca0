// Prometheus metrics: requests and latency per route pattern, plus process memory; other modules add gauges.
import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';

const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

interface Series {
  count: number;
  sum: number;
  buckets: number[];
}

/** A gauge read when /metrics is scraped (e.g. queue depth); returns labelled values. */
export type GaugeReader = () => Promise<Array<{ labels?: Record<string, string>; value: number }>>;

export class Metrics {
  private readonly requests = new Map<string, number>();
  private readonly latency = new Map<string, Series>();
  private readonly gauges = new Map<string, { help: string; read: GaugeReader }>();

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
        this.observe(c.req.method, route, c.res.status, (performance.now() - started) / 1000);
      }
    };
  }

  observe(method: string, route: string, status: number, seconds: number): void {
    const reqKey = `method="${method}",route="${esc(route)}",status="${status}"`;
    this.requests.set(reqKey, (this.requests.get(reqKey) ?? 0) + 1);
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
