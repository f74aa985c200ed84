import { createServer, type Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { PoolStats } from '../db/client.ts';
import type { SharedCountersState } from '../modules/limits/counters.ts';
import { AppError } from '../http/errors.ts';
import { tokenFromHeader } from '../http/authorization.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** This instance's metrics (server.ts serves them on METRICS_PORT). */
    metrics: Metrics;
  }
}

/** What the metrics read when scraped. */
export interface MetricSources {
  poolStats(): PoolStats | undefined;
  limitCounters(): SharedCountersState;
  /** Messages waiting for delivery, how long the oldest has waited, and those given up on. */
  outbox(): Promise<Outbox>;
}

interface Outbox {
  pending: number;
  oldestPendingSeconds: number;
  failed: number;
}

/** The operator's view of one instance, in Prometheus' text format. */
export interface Metrics {
  readonly registry: Registry;
  requestAnswered(request: { method: string; route: string; code: number; seconds: number }): void;
  jobFinished(job: string, succeeded: boolean, at: Date): void;
  mailDelivery(outcome: string): void;
  databaseConnectionLost(): void;
}

export function createMetrics(sources: MetricSources): Metrics {
  const registry = new Registry();
  const labels = ['method', 'route', 'code'] as const;
  const requests = new Counter({
    name: 'skyway_http_requests_total',
    help: 'Requests answered, by route and envelope code',
    labelNames: labels,
    registers: [registry],
  });
  const durations = new Histogram({
    name: 'skyway_http_request_duration_seconds',
    help: 'Time to answer a request, by route and envelope code',
    labelNames: labels,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const databaseErrors = new Counter({
    name: 'skyway_db_errors_total',
    help: 'Database failures: connections lost (connection), and requests answered 503 because a dependency failed (request)',
    labelNames: ['kind'],
    registers: [registry],
  });
  new Gauge({
    name: 'skyway_db_pool_connections',
    help: 'PostgreSQL pool connections: total, idle, and requests waiting for one',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const stats = sources.poolStats();
      if (!stats) return;
      for (const [state, value] of Object.entries(stats)) this.set({ state }, value);
    },
  });
  new Gauge({
    name: 'skyway_redis_fallback',
    help: '1 while Redis is unreachable and the limits count in this instance alone',
    registers: [registry],
    collect() {
      this.set(sources.limitCounters() === 'degraded' ? 1 : 0);
    },
  });
  const outboxGauge = (name: string, help: string, pick: (outbox: Outbox) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        // The database may be the thing that is down: keep the last value rather than fail the scrape.
        const outbox = await sources.outbox().catch(() => undefined);
        if (outbox) this.set(pick(outbox));
      },
    });
  outboxGauge('skyway_mail_outbox_pending', 'Messages waiting to be delivered', (o) => o.pending);
  outboxGauge(
    'skyway_mail_outbox_oldest_pending_seconds',
    'How long the oldest waiting message has waited',
    (o) => o.oldestPendingSeconds,
  );
  outboxGauge('skyway_mail_outbox_failed', 'Messages given up on after their retries', (o) => o.failed);
  const deliveries = new Counter({
    name: 'skyway_mail_deliveries_total',
    help: 'Mail delivery attempts by outcome',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const jobLastRun = new Gauge({
    name: 'skyway_job_last_run_timestamp_seconds',
    help: 'When this instance last finished a run of the job',
    labelNames: ['job'],
    registers: [registry],
  });
  const jobLastSuccess = new Gauge({
    name: 'skyway_job_last_success',
    help: '1 when the job last run on this instance succeeded, 0 when it failed',
    labelNames: ['job'],
    registers: [registry],
  });
  const jobRuns = new Counter({
    name: 'skyway_job_runs_total',
    help: 'Job runs on this instance by outcome',
    labelNames: ['job', 'outcome'],
    registers: [registry],
  });

  return {
    registry,
    requestAnswered({ method, route, code, seconds }) {
      const values = { method, route, code };
      requests.inc(values);
      durations.observe(values, seconds);
      if (code === 503) databaseErrors.inc({ kind: 'request' });
    },
    jobFinished(job, succeeded, at) {
      jobLastRun.set({ job }, at.getTime() / 1000);
      jobLastSuccess.set({ job }, succeeded ? 1 : 0);
      jobRuns.inc({ job, outcome: succeeded ? 'ok' : 'failed' });
    },
    mailDelivery: (outcome) => deliveries.inc({ outcome }),
    databaseConnectionLost: () => databaseErrors.inc({ kind: 'connection' }),
  };
}

const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/**
 * Counts every answered request (by route pattern, so ids in paths do not multiply the series) and,
 * with a token, serves `GET /metrics` to a scraper that presents it as a bearer token.
 */
export const metricsPlugin = fp(
  async (app: FastifyInstance, options: { metrics: Metrics; token: string | undefined }) => {
    const { metrics, token } = options;
    app.decorate('metrics', metrics);
    app.addHook('onResponse', async (request, reply) => {
      metrics.requestAnswered({
        method: request.method,
        route: request.routeOptions.url ?? 'unmatched',
        code: reply.statusCode,
        seconds: reply.elapsedTime / 1000,
      });
    });
    if (!token) return;
    app.get('/metrics', async (request, reply) => {
      if (tokenFromHeader(request.headers.authorization) !== token) throw new AppError(401, 'not_signed_in');
      return reply.type(PROMETHEUS_CONTENT_TYPE).send(await metrics.registry.metrics());
    });
  },
  { name: 'metrics', dependencies: ['errors'] },
);

/** METRICS_PORT: the metrics on a port of their own, for a scraper on a private network. */
export async function serveMetricsOnPort(metrics: Metrics, host: string, port: number): Promise<Server> {
  const server = createServer((request, response) => {
    if (request.method !== 'GET' || request.url !== '/metrics') {
      response.writeHead(404).end();
      return;
    }
    metrics.registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': PROMETHEUS_CONTENT_TYPE }).end(text),
      () => response.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  return server;
}
