import autocannon from 'autocannon';

export interface LoadOptions {
  /** Seconds of measured load. */
  duration: number;
  connections: number;
  /** Seconds of unmeasured load first (JIT, caches, connection pools). */
  warmup: number;
}

export interface Measurement {
  label: string;
  reqPerSec: number;
  p50: number;
  p99: number;
  requests: number;
  errors: number;
  non2xx: number;
}

export interface LoadRequest {
  label: string;
  url: string;
  headers?: Record<string, string>;
}

function fire(url: string, headers: Record<string, string>, duration: number, connections: number) {
  // One worker thread generates the load, so the server under test keeps the main thread's event loop to itself.
  return autocannon({ url, headers, duration, connections, workers: 1 });
}

/** Warms up, then measures one URL under load; refuses to report a run that saw errors or non-2xx answers. */
export async function measure(req: LoadRequest, opts: LoadOptions): Promise<Measurement> {
  const headers = req.headers ?? {};
  if (opts.warmup > 0) await fire(req.url, headers, opts.warmup, opts.connections);
  const r = await fire(req.url, headers, opts.duration, opts.connections);
  const m: Measurement = {
    label: req.label,
    reqPerSec: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    requests: r.requests.total,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
  };
  if (m.errors > 0 || m.non2xx > 0 || m.requests === 0)
    throw new Error(`${req.label}: ${m.requests} requests, ${m.errors} errors/timeouts, ${m.non2xx} non-2xx answers: the run is not valid`);
  return m;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
