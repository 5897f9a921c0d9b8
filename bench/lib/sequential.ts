/**
 * Latency as one user sees it: requests sent one at a time over a kept-alive HTTP connection, each timed from the
 * send to the last byte of the answer. Used where each request differs (a query per request), which a load generator
 * replaying one URL cannot do.
 */

export interface Latencies {
  label: string;
  /** Milliseconds, sorted ascending. */
  sorted: number[];
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Times one GET; refuses a non-2xx answer (a benchmark of errors measures nothing). */
export async function timedGet(url: string, headers: Record<string, string>): Promise<number> {
  const start = performance.now();
  const res = await fetch(url, { headers });
  const body = await res.text();
  const ms = performance.now() - start;
  if (!res.ok) throw new Error(`GET ${url}: ${res.status} ${body.slice(0, 300)}`);
  return ms;
}

/** Times `run(i)` for every i, interleaving the runs of several series (a, b, c, a, b, c, …) on a loaded machine. */
export async function timeInterleaved(count: number, series: { label: string; run: (i: number) => Promise<unknown> }[]): Promise<Latencies[]> {
  const times = series.map(() => [] as number[]);
  for (let i = 0; i < count; i++)
    for (const [k, s] of series.entries()) {
      const start = performance.now();
      await s.run(i);
      times[k].push(performance.now() - start);
    }
  return series.map((s, k) => ({ label: s.label, sorted: times[k].sort((a, b) => a - b) }));
}

export function describeLatencies(l: Latencies): string {
  const f = (p: number) => percentile(l.sorted, p).toFixed(1);
  return `${l.label}: n=${l.sorted.length}  p50 ${f(50)} ms  p95 ${f(95)} ms  p99 ${f(99)} ms  max ${l.sorted.at(-1)?.toFixed(1)} ms`;
}

/** `a` over `baseline` at p50 and p95, as "p50 3.1×, p95 4.0×". */
export function describeRatio(a: Latencies, baseline: Latencies): string {
  const r = (p: number) => (percentile(a.sorted, p) / percentile(baseline.sorted, p)).toFixed(1);
  return `${a.label} / ${baseline.label}: p50 ${r(50)}×, p95 ${r(95)}×`;
}
