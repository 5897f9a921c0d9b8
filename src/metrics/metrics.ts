import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Database } from '../db/index.js';
import { metricsRepo } from './metrics.repo.js';

/** Where the scrape-time gauges read from; functions, so a scrape sees the state of that moment. */
export interface MetricSources {
  database: Database;
  /** Open co-editing connections and live documents on this instance (absent: reported as 0). */
  collab?: () => { connections: number; documents: number };
  version: string;
  /** Node.js process metrics (CPU, memory, event-loop lag, GC) on this registry too. */
  processMetrics: boolean;
  /** Told when a scrape could not read the job queue (the other metrics are still answered). */
  onQueueError?: (err: unknown) => void;
}

/** Failed jobs are counted over this window (the `kb_jobs_failed_last_hour` gauge). */
const FAILED_WINDOW_S = 3600;
const QUEUE_READ_TIMEOUT_MS = 2000;

export type ServiceMetrics = ReturnType<typeof createMetrics>;

/**
 * The service's Prometheus metrics, on a registry of its own (one per app: tests build many apps in one process, and
 * the default global registry would refuse a second metric of the same name). Counters and the request histogram are
 * per instance (Prometheus sums them across instances); queue gauges are read from the shared database at scrape time,
 * so every instance reports the same queue and a worker running in another process needs no endpoint of its own.
 */
export function createMetrics(sources: MetricSources) {
  const registry = new Registry();
  const registers = [registry];
  if (sources.processMetrics) collectDefaultMetrics({ register: registry });

  const requestDuration = new Histogram({
    name: 'kb_http_request_duration_seconds',
    help: 'HTTP requests by method, route pattern and status code, with their duration in seconds',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers,
  });
  const rateLimitRefusals = new Counter({
    name: 'kb_rate_limit_refusals_total',
    help: 'Requests refused with 429 by a rate limiter (api: per caller; auth: login and signup attempts)',
    labelNames: ['limiter'] as const,
    registers,
  });
  for (const limiter of ['api', 'auth']) rateLimitRefusals.inc({ limiter }, 0);

  const jobsQueued = new Gauge({
    name: 'kb_jobs_queued',
    help: 'Jobs whose time has come, waiting for a worker, by kind',
    labelNames: ['kind'] as const,
    registers,
  });
  const jobsRunning = new Gauge({ name: 'kb_jobs_running', help: 'Jobs a worker holds, by kind', labelNames: ['kind'] as const, registers });
  const oldestQueued = new Gauge({
    name: 'kb_jobs_oldest_queued_age_seconds',
    help: 'Seconds the longest-waiting ready job has waited since it became runnable, by kind (0: none waits)',
    labelNames: ['kind'] as const,
    registers,
  });
  const failedLastHour = new Gauge({
    name: 'kb_jobs_failed_last_hour',
    help: 'Jobs that failed for good (no attempts left, or a permanent error) in the last hour, by kind',
    labelNames: ['kind'] as const,
    registers,
  });
  // A kind once seen stays reported (at 0 when idle), so a series does not vanish when its queue drains.
  const kindsSeen = new Set<string>();

  const pool = sources.database.pool;
  const poolGauge = (name: string, help: string, read: () => number) =>
    new Gauge({
      name,
      help,
      registers,
      collect() {
        this.set(read());
      },
    });
  poolGauge('kb_db_pool_total', 'Database connections open (PGlite: one connection to the embedded engine)', () => pool?.totalCount ?? 0);
  poolGauge('kb_db_pool_idle', 'Database connections open and idle', () => pool?.idleCount ?? 0);
  poolGauge('kb_db_pool_waiting', 'Queries waiting for a database connection', () => pool?.waitingCount ?? 0);
  poolGauge('kb_db_pool_max', 'Most database connections the pool opens (PGlite: 1, it runs one query at a time)', () => pool?.options.max ?? 0);

  new Gauge({
    name: 'kb_collab_connections',
    help: 'Open co-editing connections on this instance',
    registers,
    collect() {
      this.set(sources.collab?.().connections ?? 0);
    },
  });
  new Gauge({
    name: 'kb_collab_documents',
    help: 'Pages loaded for co-editing on this instance',
    registers,
    collect() {
      this.set(sources.collab?.().documents ?? 0);
    },
  });
  new Gauge({ name: 'kb_build_info', help: 'The running version (always 1)', labelNames: ['version', 'database'] as const, registers }).set(
    { version: sources.version, database: sources.database.kind },
    1,
  );

  async function readQueue() {
    const db = sources.database.db;
    const [queue, failed] = await withTimeout(Promise.all([metricsRepo.queueByKind(db), metricsRepo.failedByKind(db, FAILED_WINDOW_S)]), QUEUE_READ_TIMEOUT_MS);
    for (const row of [...queue, ...failed]) kindsSeen.add(row.kind);
    for (const gauge of [jobsQueued, jobsRunning, oldestQueued, failedLastHour]) gauge.reset();
    for (const kind of kindsSeen) {
      const q = queue.find((r) => r.kind === kind);
      jobsQueued.set({ kind }, q?.ready ?? 0);
      jobsRunning.set({ kind }, q?.running ?? 0);
      oldestQueued.set({ kind }, q?.oldestReadyAgeSeconds ?? 0);
      failedLastHour.set({ kind }, failed.find((r) => r.kind === kind)?.failed ?? 0);
    }
  }

  return {
    contentType: registry.contentType,
    observeRequest(method: string, route: string, statusCode: number, seconds: number) {
      requestDuration.observe({ method, route, status_code: String(statusCode) }, seconds);
    },
    rateLimitRefused(limiter: string) {
      rateLimitRefusals.inc({ limiter });
    },
    /** The exposition text: the job queue is read first (a failed read leaves its gauges empty, never the scrape). */
    async scrape(): Promise<string> {
      try {
        await readQueue();
      } catch (err) {
        for (const gauge of [jobsQueued, jobsRunning, oldestQueued, failedLastHour]) gauge.reset();
        sources.onQueueError?.(err);
      }
      return registry.metrics();
    },
  };
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([p, new Promise<T>((_, reject) => (timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms)))]).finally(() =>
    clearTimeout(timer),
  );
}
