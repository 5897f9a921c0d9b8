import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';

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
  /** Latency percentiles, milliseconds. */
  p50: number;
  p99: number;
  requests: number;
  errors: number;
  non2xx: number;
  /**
   * CPU time of this process (the servers under test, their database client and PGlite; the load generator is a
   * separate process) per request, µs. Steadier than req/s on a busy machine.
   */
  cpuPerRequest: number;
}

export interface LoadRequest {
  label: string;
  url: string;
  headers?: Record<string, string>;
}

const AUTOCANNON = path.join(path.dirname(createRequire(import.meta.url).resolve('autocannon')), 'autocannon.js');

interface AutocannonJson {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  errors: number;
  timeouts: number;
  non2xx: number;
}

/** Runs autocannon in its own process, so the load generator never shares this process's event loop or CPU account. */
export function fire(url: string, headers: Record<string, string>, duration: number, connections: number): Promise<AutocannonJson> {
  const args = [AUTOCANNON, '--json', '--connections', String(connections), '--duration', String(duration)];
  for (const [k, v] of Object.entries(headers)) args.push('--headers', `${k}=${v}`);
  args.push(url);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const line = out.trim().split('\n').pop() ?? '';
      try {
        if (code !== 0) throw new Error(`exit code ${code}`);
        resolve(JSON.parse(line) as AutocannonJson);
      } catch (e) {
        reject(new Error(`autocannon failed (${(e as Error).message}): ${err || out}`));
      }
    });
  });
}

/** Warms up, then measures one URL under load; refuses to report a run that saw errors or non-2xx answers. */
export async function measure(req: LoadRequest, opts: LoadOptions): Promise<Measurement> {
  const headers = req.headers ?? {};
  if (opts.warmup > 0) await fire(req.url, headers, opts.warmup, opts.connections);
  const cpuBefore = process.cpuUsage();
  const r = await fire(req.url, headers, opts.duration, opts.connections);
  const cpu = process.cpuUsage(cpuBefore);
  const m: Measurement = {
    label: req.label,
    reqPerSec: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    requests: r.requests.total,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
    cpuPerRequest: r.requests.total ? (cpu.user + cpu.system) / r.requests.total : 0,
  };
  if (m.errors > 0 || m.non2xx > 0 || m.requests === 0)
    throw new Error(`${req.label}: ${m.requests} requests, ${m.errors} errors/timeouts, ${m.non2xx} non-2xx answers: the run is not valid`);
  return m;
}

/**
 * Measures several URLs in interleaved rounds (a, b, c, a, b, c, …) and reports each one's median figures, so that a
 * burst of load from elsewhere on the machine does not land on one of them only.
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
    cpuPerRequest: median(list.map((m) => m.cpuPerRequest)),
  }));
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
