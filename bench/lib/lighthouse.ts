import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { readFileSync, rmSync } from 'node:fs';

/** One Lighthouse run's figures (categories 0–100, times in ms, bytes transferred). */
export interface LighthouseFigures {
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  lcpMs: number;
  tbtMs: number;
  bytes: number;
}

/**
 * Lighthouse 12.8.2 (`npx -y`, mobile with its default throttling) on `url` in Debian's chromium (CHROME_PATH or
 * /usr/bin/chromium), headless; `headers` go with every request (a session cookie for a signed-in screen).
 */
export async function lighthouse(url: string, headers: Record<string, string> = {}): Promise<LighthouseFigures> {
  const out = `/tmp/lh-${process.pid}-${Date.now()}.json`;
  // Asynchronously: the service measured may run in this process, and must go on answering.
  await promisify(execFile)(
    'npx',
    [
      '-y',
      'lighthouse@12.8.2',
      url,
      ...(process.env.LH_VERBOSE === '1' ? [] : ['--quiet']),
      '--output=json',
      `--output-path=${out}`,
      '--only-categories=performance,accessibility,best-practices,seo',
      '--chrome-flags=--headless=new --no-sandbox --disable-gpu',
      ...(Object.keys(headers).length ? [`--extra-headers=${JSON.stringify(headers)}`] : []),
    ],
    { maxBuffer: 64 * 1024 * 1024, env: { ...process.env, CHROME_PATH: process.env.CHROME_PATH ?? '/usr/bin/chromium' } },
  );
  const report = JSON.parse(readFileSync(out, 'utf8'));
  rmSync(out, { force: true });
  const score = (c: string) => Math.round(report.categories[c].score * 100);
  const failing = Object.values(report.audits as Record<string, { id: string; score: number | null; scoreDisplayMode: string }>)
    .filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode === 'binary')
    .map((a) => a.id);
  if (process.env.LH_VERBOSE === '1') {
    console.error(`lighthouse ${url}: failing binary audits: ${failing.join(', ') || 'none'}`);
    // What each failing audit found (the console's errors, the elements short of contrast), in a line each.
    for (const id of failing) {
      const items = (report.audits[id].details?.items ?? []) as Array<Record<string, unknown>>;
      for (const item of items.slice(0, 5)) console.error(`  ${id}: ${JSON.stringify(item).slice(0, 300)}`);
    }
  }
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    seo: score('seo'),
    lcpMs: Math.round(report.audits['largest-contentful-paint'].numericValue),
    tbtMs: Math.round(report.audits['total-blocking-time'].numericValue),
    bytes: Math.round(report.audits['total-byte-weight'].numericValue),
  };
}

/** The median of each figure over `runs`. */
export function medianFigures(runs: LighthouseFigures[]): LighthouseFigures {
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return Object.fromEntries(Object.keys(runs[0]).map((k) => [k, median(runs.map((r) => r[k as keyof LighthouseFigures]))])) as unknown as LighthouseFigures;
}
