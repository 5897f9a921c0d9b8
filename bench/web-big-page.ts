/**
 * A 1 MB page in the web app (issue 12: "a 1 MB page opens and types without lag"): `npx tsx bench/web-big-page.ts`.
 * Serves the built app (WEB_BENCH_DIST, default `web/dist` as `npm ci` builds it) from the service on a fresh PGlite
 * database, makes a page of ~1 MB of Markdown (~4,000 blocks: headings, paragraphs, lists) and a small one of the
 * same blocks (~2 KB, the baseline), and in headless chromium, for each:
 * - open: navigation to the page's URL until its last block's text shows in the editor;
 * - keystroke to paint: WEB_BIG_KEYS keys (default 40) typed at the page's end and as many in its middle, one every
 *   120 ms (a brisk typist); each from the `keydown` event to the animation frame after the editor's DOM changed,
 *   timed in the page.
 * Figures are p50/p95 and the ratio of the big page's to the small page's. With WEB_BIG_PROFILE=1, a CPU profile of
 * the typing on the big page is written to .tmp/web-big-page.cpuprofile and its heaviest functions (self time) printed;
 * with WEB_BIG_TRACE=1, a trace of the typing at the end, the main thread's self time by event (Blink's own work, such as
 * the selection sync, shows there and not in a CPU profile). Also printed: main-thread time per key by kind (CDP
 * `Performance.getMetrics`), and whether every typed key is in the page afterwards.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, CDPSession } from 'playwright-core';
import { launchChromium, signedInPage } from './lib/browser.js';
import { type CpuProfile, heaviest, selfTime } from './lib/cpu-profile.js';
import { describeLatencies, type Latencies } from './lib/sequential.js';
import { startTarget } from './lib/target.js';
import { typeTimed } from './lib/typing.js';

const DIST = path.resolve(process.env.WEB_BENCH_DIST ?? 'web/dist');
const KEYS = Number(process.env.WEB_BIG_KEYS ?? 40);
const PROFILE = process.env.WEB_BIG_PROFILE === '1';
const TRACE = process.env.WEB_BIG_TRACE === '1';
const PASSWORD = 'correct horse battery staple';

/** Markdown of about `bytes`: a heading every 20 blocks, lists every 7th, otherwise two-sentence paragraphs. */
function pageMarkdown(bytes: number) {
  const sentence = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. ';
  const blocks: string[] = [];
  for (let i = 0, size = 0; size < bytes; i++) {
    const block = i % 20 === 0 ? `## Section ${i / 20}` : i % 7 === 0 ? `- item ${i}\n- item ${i + 1}` : `${sentence}${sentence}${i}`;
    blocks.push(block);
    size += block.length + 2;
  }
  blocks.push('The very end.');
  return blocks.join('\n\n');
}

interface PageFigures {
  openMs: number;
  atEnd: number[];
  inMiddle: number[];
}

async function measure(browser: Browser, baseUrl: string, email: string, url: string, label: string): Promise<PageFigures> {
  const page = await signedInPage(browser, baseUrl, email, PASSWORD);
  const context = page.context();
  const editor = page.getByRole('textbox', { name: 'Page content' });
  const opening = Date.now();
  await page.goto(url);
  await editor.getByText('The very end.').waitFor({ timeout: 60_000 });
  const openMs = Date.now() - opening;

  await editor.getByText('The very end.').click();
  await page.keyboard.press('Control+End');
  const cdp = PROFILE && label === 'big' ? await context.newCDPSession(page) : null;
  if (cdp) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
  }
  const text = 'quick brown fox jumps over the lazy dog '.repeat(4).slice(0, KEYS);
  const metrics = await context.newCDPSession(page);
  await metrics.send('Performance.enable');
  const before = await mainThread(metrics);
  if (TRACE && label === 'big') await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink', 'v8'] });
  const atEnd = await typeTimed(page, text);
  if (TRACE && label === 'big') printTrace(JSON.parse((await browser.stopTracing()).toString()));
  const after = await mainThread(metrics);
  console.log(
    `${label} page, typing at the end, main thread per key (ms): ${Object.entries(after)
      .map(([k, v]) => `${k} ${(((v - (before[k] ?? 0)) * 1000) / text.length).toFixed(1)}`)
      .join(', ')}`,
  );
  // The middle: the start of the paragraph nearest the document's middle, found by its number.
  const blocks = await editor.locator(':scope > *').count();
  await editor
    .locator(':scope > p')
    .nth(Math.floor(blocks / 2.3))
    .click();
  const inMiddle = await typeTimed(page, text);
  if (cdp) {
    const { profile } = (await cdp.send('Profiler.stop')) as { profile: CpuProfile };
    mkdirSync('.tmp', { recursive: true });
    writeFileSync('.tmp/web-big-page.cpuprofile', JSON.stringify(profile));
    printHeaviest(profile);
  }
  const typed = (await editor.textContent())?.split(text.trim()).length ?? 0;
  console.log(`${label}: the typed text is found ${typed - 1} times (2 expected)`);
  await context.close();
  return { openMs, atEnd, inMiddle };
}

/** The renderer's main-thread time so far, seconds, by kind (CDP `Performance.getMetrics`). */
async function mainThread(cdp: CDPSession): Promise<Record<string, number>> {
  const { metrics } = (await cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] };
  const wanted = ['TaskDuration', 'ScriptDuration', 'RecalcStyleDuration', 'LayoutDuration'];
  return Object.fromEntries(metrics.filter((m) => wanted.includes(m.name)).map((m) => [m.name.replace('Duration', ''), m.value]));
}

/** Main-thread self time by trace event: each complete event of the renderer's main thread less the events inside it. */
function printTrace(trace: { traceEvents: TraceEvent[] }) {
  const main = trace.traceEvents.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const events = trace.traceEvents
    .filter((e) => e.ph === 'X' && e.dur && main && e.tid === main.tid && e.pid === main.pid)
    .sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  const self = new Map<string, number>();
  const open: { end: number; name: string }[] = [];
  for (const e of events) {
    while (open.length && (open.at(-1) as { end: number }).end <= e.ts) open.pop();
    const dur = (e.dur ?? 0) / 1000;
    self.set(e.name, (self.get(e.name) ?? 0) + dur);
    const parent = open.at(-1);
    if (parent) self.set(parent.name, (self.get(parent.name) ?? 0) - dur);
    open.push({ end: e.ts + (e.dur ?? 0), name: e.name });
  }
  const syncs = events.filter((e) => e.name === 'Editor::SyncSelection' || e.name === 'GetSelectionOffsets');
  console.log(
    `trace: ${syncs.filter((e) => e.name === 'Editor::SyncSelection').length} selection syncs, ${syncs.filter((e) => e.name === 'GetSelectionOffsets').length} GetSelectionOffsets; durations: ${syncs
      .slice(0, 12)
      .map((e) => `${e.name[0]}${((e.dur ?? 0) / 1000).toFixed(1)}`)
      .join(' ')}`,
  );
  console.log('trace, main thread, self ms by event:');
  for (const [name, total] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`  ${total.toFixed(1).padStart(9)}  ${name}`);
}

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  tid: number;
  pid: number;
  args?: { name?: string };
}

/** The 25 functions with the most self time in the profile. */
function printHeaviest(profile: CpuProfile) {
  const { total, byFunction } = selfTime(profile);
  console.log(`CPU profile of the typing on the big page: ${total.toFixed(0)} ms sampled; heaviest self time:`);
  for (const line of heaviest(byFunction)) console.log(line);
}

const latencies = (label: string, xs: number[]): Latencies => ({ label, sorted: [...xs].sort((a, b) => a - b) });

const target = await startTarget('pglite', { WEB_DIST_DIR: DIST, WORKERS: '0' });
const browser = await launchChromium();
try {
  const email = `big-${Date.now()}@example.test`;
  const { token } = (await target.call('POST', '/api/v1/auth/signup', undefined, { email, password: PASSWORD, name: 'Bench' })).data;
  const ws = (await target.call('POST', '/api/v1/workspaces', token, { name: 'Bench', hostname: `big${Date.now() % 1e6}` })).data;
  const space = (await target.call('POST', '/api/v1/spaces', token, { workspaceId: ws.id, name: 'Handbook' })).data;
  const made = async (title: string, markdown: string) => {
    const p = (await target.call('POST', '/api/v1/pages', token, { workspaceId: ws.id, spaceId: space.id, title, markdown })).data;
    return `/w/${ws.hostname}/s/${space.slug}/p/${p.slug}-${p.id}`;
  };
  const bigMarkdown = pageMarkdown(1_000_000);
  const big = await made('Big page', bigMarkdown);
  const small = await made('Small page', pageMarkdown(2_000));
  const figures = { small: await measure(browser, target.appUrl, email, small, 'small'), big: await measure(browser, target.appUrl, email, big, 'big') };
  console.log(
    `1 MB page: ${(bigMarkdown.length / 1e6).toFixed(2)} MB of Markdown; load average ${(await import('node:os'))
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  console.log(`open: big ${figures.big.openMs} ms, small ${figures.small.openMs} ms (${(figures.big.openMs / figures.small.openMs).toFixed(1)}×)`);
  for (const where of ['atEnd', 'inMiddle'] as const) {
    const b = latencies(`keystroke to paint, big page, ${where}`, figures.big[where]);
    const s = latencies(`keystroke to paint, small page, ${where}`, figures.small[where]);
    console.log(describeLatencies(b));
    console.log(describeLatencies(s));
  }
} finally {
  await browser.close();
  await target.close();
}
