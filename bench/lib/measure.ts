import autocannon from 'autocannon';

export interface LoadOptions {
  /** Seconds of measured load. */
  duration: number;
  connections: number;
  /** Seconds of unmeasured load first (JIT, caches, connection pools). */
  warmup: number;
  /** `measureAll` repeats its list this many times, interleaved, and reports medians (default 1). */
  rounds?: number;
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

/**
 * Measures several URLs in interleaved rounds (a, b, c, a, b, c, …) and reports each one's median req/s and p99, so
 * that a burst of load from elsewhere on the machine does not land on one of them only. Ratios between the results
 * are what to read; absolute figures depend on the machine.
 */
export async function measureAll(requests: LoadRequest[], opts: LoadOptions): Promise<Measurement[]> {
  const runs: Measurement[][] = requests.map(() => []);
  const rounds = Math.max(1, opts.rounds ?? 1);
  for (let round = 0; round < rounds; round++) for (const [i, req] of requests.entries()) runs[i].push(await measure(req, opts));
  return runs.map((list) => ({
    label: list[0].label,
    reqPerSec: median(list.map((m) => m.reqPerSec)),
    p50: median(list.map((m) => m.p50)),
    p99: median(list.map((m) => m.p99)),
    requests: list.reduce((sum, m) => sum + m.requests, 0),
    errors: 0,
    non2xx: 0,
  }));
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
