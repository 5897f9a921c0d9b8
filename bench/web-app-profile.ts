/**
 * Where the web app's first screen spends its time: `npx tsx bench/web-app-profile.ts` (WEB_PROFILE_RUNS, default 3;
 * WEB_PROFILE_DIST reuses a built app instead of building one into a temporary folder). Same browser, flags and data
 * shape as `bench/web-app.ts` (WEB_BENCH_PAGES, default 400 here: the first screen reads only the tree's first level).
 * For each cold load it prints, in ms from the navigation's start: the document, every script, stylesheet and API read
 * (start → end), when the tree and "New page" appeared, and the main thread's busy time (CDP Performance.getMetrics:
 * script, style, layout) with the long tasks. Then it opens two pages from the tree and prints the requests and
 * main-thread time of each open.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { CDPSession, Page } from 'playwright-core';
import { launchChromium } from './lib/browser.js';
import { type CpuProfile, heaviest, selfTime } from './lib/cpu-profile.js';
import { build } from 'vite';
import { startTarget, type Target } from './lib/target.js';

const RUNS = Number(process.env.WEB_PROFILE_RUNS ?? 3);
const PAGES = Number(process.env.WEB_BENCH_PAGES ?? 400);

async function seed(target: Target) {
  const email = `profile-${Date.now()}@example.test`;
  const password = 'correct horse battery staple';
  const { token } = (await target.call('POST', '/api/v1/auth/signup', undefined, { email, password, name: 'Bench' })).data;
  const ws = (await target.call('POST', '/api/v1/workspaces', token, { name: 'Bench', hostname: `bench${Date.now() % 1e6}` })).data;
  const space = (await target.call('POST', '/api/v1/spaces', token, { workspaceId: ws.id, name: 'Handbook' })).data;
  const roots = Math.max(1, Math.round(PAGES / 100));
  for (let r = 0; r < roots; r++) {
    const markdown = `# Chapter ${r}\n\nHow team ${r} ships a release and reviews the budget every quarter.\n\n- one\n- two\n`;
    const root = (await target.call('POST', '/api/v1/pages', token, { workspaceId: ws.id, spaceId: space.id, title: `Chapter ${r}`, markdown })).data;
    for (let c = 0; c < 99; c += 20)
      await Promise.all(
        Array.from({ length: Math.min(20, 99 - c) }, (_, k) =>
          target.call('POST', '/api/v1/pages', token, {
            workspaceId: ws.id,
            spaceId: space.id,
            parentId: root.id,
            title: `Section ${r}.${c + k}`,
            markdown: 'Text.',
          }),
        ),
      );
  }
  return { email, password, url: `/w/${ws.hostname}/s/${space.slug}` };
}

/** Records when the tree and the "New page" button first exist, from the document's start. */
const MARKS = `(() => {
  const seen = {};
  window.__marks = seen;
  const check = () => {
    if (!seen.tree && document.querySelector('[role=tree] [role=treeitem]')) seen.tree = performance.now();
    if (!seen.newPage && [...document.querySelectorAll('button')].some((b) => b.textContent.trim() === 'New page')) seen.newPage = performance.now();
    if (!seen.shell && document.querySelector('header')) seen.shell = performance.now();
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true });
  window.__longTasks = [];
  try { new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__longTasks.push([Math.round(e.startTime), Math.round(e.duration)]); }).observe({ type: 'longtask', buffered: true }); } catch {}
})();`;

async function metrics(cdp: CDPSession) {
  const { metrics } = await cdp.send('Performance.getMetrics');
  const m = Object.fromEntries(metrics.map((x: { name: string; value: number }) => [x.name, x.value]));
  return { script: m.ScriptDuration * 1000, style: m.RecalcStyleDuration * 1000, layout: m.LayoutDuration * 1000, task: m.TaskDuration * 1000 };
}

const diff = (a: Record<string, number>, b: Record<string, number>) => Object.fromEntries(Object.keys(a).map((k) => [k, Math.round(a[k] - b[k])]));

// A string, not a function: tsx would wrap the inner arrow functions in a `__name` helper the page does not have.
const TIMELINE = `(since) => {
  const short = (u) => u.replace(location.origin, '').replace(/\\?.*$/, (q) => (q.length > 40 ? q.slice(0, 40) + '…' : q));
  const nav = performance.getEntriesByType('navigation')[0];
  const rows = performance.getEntriesByType('resource')
    .filter((e) => e.startTime >= since)
    .map((e) => String(Math.round(e.startTime)).padStart(5) + ' → ' + String(Math.round(e.responseEnd)).padStart(5) + '  ' + (e.transferSize / 1024).toFixed(1).padStart(6) + ' KB  ' + short(e.name));
  return {
    doc: nav ? Math.round(nav.startTime) + ' → ' + Math.round(nav.responseEnd) + ' (DOMContentLoaded ' + Math.round(nav.domContentLoadedEventEnd) + ')' : '',
    rows,
    marks: window.__marks,
    longTasks: window.__longTasks.filter(([s]) => s >= since),
  };
}`;

async function timeline(page: Page, since = 0): Promise<{ doc: string; rows: string[]; marks: Record<string, number>; longTasks: number[][] }> {
  return page.evaluate(`(${TIMELINE})(${since})`);
}

const CPU = process.env.WEB_PROFILE_CPU === '1';

/** WEB_PROFILE_CPU=1: the first screen's main-thread samples, self time by script and by function (top 25 each). */
function printProfile(profile: CpuProfile) {
  const { byScript, byFunction } = selfTime(profile);
  console.log('  CPU self time by script:');
  for (const line of heaviest(byScript, 25, '    ')) console.log(line);
  console.log('  CPU self time by function:');
  for (const line of heaviest(byFunction, 25, '    ')) console.log(line);
}

const dist = process.env.WEB_PROFILE_DIST ?? mkdtempSync(path.join(tmpdir(), 'kb-web-profile-'));
const target = await startTarget('pglite', { WEB_DIST_DIR: dist });
try {
  if (!process.env.WEB_PROFILE_DIST)
    await build({ configFile: path.resolve('web/vite.config.ts'), logLevel: 'warn', build: { outDir: dist, emptyOutDir: true } });
  const s = await seed(target);
  const browser = await launchChromium();
  for (let i = 0; i < RUNS; i++) {
    const context = await browser.newContext({ baseURL: target.appUrl, viewport: { width: 1280, height: 800 } });
    await context.request.post('/api/v1/auth/session', { data: { email: s.email, password: s.password } });
    await context.addInitScript(MARKS);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    const m0 = await metrics(cdp);
    if (CPU) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp.send('Profiler.start');
    }
    const t0 = performance.now();
    await page.goto(s.url);
    await page.getByRole('treeitem', { name: 'Chapter 0' }).first().waitFor();
    await page.getByRole('button', { name: 'New page' }).first().waitFor();
    const wall = performance.now() - t0;
    const m1 = await metrics(cdp);
    if (CPU) printProfile((await cdp.send('Profiler.stop')).profile as CpuProfile);
    const t = await timeline(page);
    console.log(`\n== run ${i + 1}: first screen ${Math.round(wall)} ms (wall, from goto)`);
    console.log(`  document ${t.doc}; header at ${Math.round(t.marks.shell)}, tree at ${Math.round(t.marks.tree)}, New page at ${Math.round(t.marks.newPage)}`);
    console.log(`  main thread until then: ${JSON.stringify(diff(m1, m0))} (ms)`);
    console.log(`  long tasks [start, ms]: ${JSON.stringify(t.longTasks)}`);
    for (const r of t.rows) console.log(`  ${r}`);
    for (const title of ['Chapter 1', 'Chapter 2']) {
      const since = (await page.evaluate('performance.now()')) as number;
      const before = await metrics(cdp);
      const events: string[] = [];
      const at = (what: string) => events.push(`${Math.round(performance.now() - t1)} ${what}`);
      const onSocket = (ws: import('playwright-core').WebSocket) => {
        at('socket opened');
        ws.on('framesent', (f) => at(`sent ${typeof f.payload === 'string' ? f.payload.length : f.payload.byteLength} B`));
        ws.on('framereceived', (f) => at(`received ${typeof f.payload === 'string' ? f.payload.length : f.payload.byteLength} B`));
      };
      const onResponse = (r: import('playwright-core').Response) => at(`response ${r.url().replace(target.appUrl, '').slice(0, 60)}`);
      page.on('websocket', onSocket);
      page.on('response', onResponse);
      const t1 = performance.now();
      await page.getByRole('treeitem', { name: title }).first().click();
      at('clicked');
      await page
        .getByLabel('Page content')
        .filter({ hasText: `How team ${title.split(' ')[1]} ships` })
        .waitFor();
      const took = performance.now() - t1;
      at('content shown');
      page.off('websocket', onSocket);
      page.off('response', onResponse);
      console.log(`    events (ms from the click's start): ${events.join('; ')}`);
      const after = await metrics(cdp);
      const o = await timeline(page, since);
      console.log(`  open ${title}: ${Math.round(took)} ms; main thread ${JSON.stringify(diff(after, before))}; long tasks ${JSON.stringify(o.longTasks)}`);
      for (const r of o.rows) console.log(`    ${r}`);
    }
    await context.close();
  }
  await browser.close();
} finally {
  await target.close();
  if (!process.env.WEB_PROFILE_DIST) rmSync(dist, { recursive: true, force: true });
}
