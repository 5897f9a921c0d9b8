/**
 * The web app's speed goals of issue 30, through a real browser: `npx tsx bench/web-editor-speed.ts`.
 * Serves the built app (WEB_BENCH_DIST, default `web/dist`) from the service on a fresh PGlite database and measures:
 * 1. the shell's JavaScript: the scripts the first screen loads (index.html's script, module preloads and boot.js),
 *    gzipped (-9), against the goal of 250 KB;
 * 2. typing on a ~2,000-word page using every block type against a plain page of the same number of words (the
 *    baseline): keydown to the next frame after the editor's DOM changed, SPEED_KEYS keys (default 60) at the end and as
 *    many in the middle, in SPEED_ROUNDS alternating rounds (default 3), p50/p95 and the ratio of p95s;
 * 3. opening a page with 10 Mermaid diagrams and 10 embeds against the same text without them: from navigation until
 *    the frame that paints the first and the last paragraph's text, SPEED_OPENS rounds (default 5) alternating, medians
 *    and ratios;
 * 4. Lighthouse 12.8.2 (mobile, default throttling; LH_RUNS runs, default 3, medians) on the sign-in screen, the
 *    workspace home, the all-blocks page and that page's public share.
 * SPEED_PROFILE=1 prints the heaviest functions (self time) of a CPU profile of each page's typing.
 * SPEED_PARTS (default `typing,open,lighthouse`) picks the parts 2–4 to run.
 * Run it on demand, never in tests.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { CDPSession, Page } from 'playwright-core';
import { allBlocksMarkdown, diagramsAndEmbedsMarkdown, plainMarkdown } from './lib/all-blocks.js';
import { launchChromium, signedInPage } from './lib/browser.js';
import { type CpuProfile, heaviest, selfTime } from './lib/cpu-profile.js';
import { type LighthouseFigures, lighthouse, medianFigures } from './lib/lighthouse.js';
import { describeLatencies, percentile } from './lib/sequential.js';
import { startTarget } from './lib/target.js';
import { typeTimed } from './lib/typing.js';

const DIST = path.resolve(process.env.WEB_BENCH_DIST ?? 'web/dist');
const KEYS = Number(process.env.SPEED_KEYS ?? 60);
const OPENS = Number(process.env.SPEED_OPENS ?? 5);
const ROUNDS = Number(process.env.SPEED_ROUNDS ?? 3);
const LH_RUNS = Number(process.env.LH_RUNS ?? 3);
const PARTS = new Set((process.env.SPEED_PARTS ?? 'typing,open,lighthouse').split(','));
const PASSWORD = 'correct horse battery staple';
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p95 = (xs: number[]) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    95,
  );

/** The scripts index.html loads before the first screen shows, each gzipped. */
function shellScripts(): { file: string; gzip: number }[] {
  const html = readFileSync(path.join(DIST, 'index.html'), 'utf8');
  const files = [...html.matchAll(/(?:src|href)="(\/[^"]+\.js)"/g)].map((m) => m[1]);
  return files.map((file) => ({ file, gzip: gzipSync(readFileSync(path.join(DIST, file)), { level: 9 }).length }));
}

/** Typing at the page's end and at the start of a paragraph in its middle. */
async function typing(page: Page, url: string): Promise<number[]> {
  const editor = page.getByRole('textbox', { name: 'Page content' });
  await page.goto(url);
  await editor.getByText('The very end.').waitFor({ timeout: 60_000 });
  await page.waitForTimeout(1500); // lazy diagrams, maths and embeds settle before the keys are timed
  await editor.getByText('The very end.').click();
  await page.keyboard.press('End');
  const text = 'quick brown fox jumps over the lazy dog '.repeat(4).slice(0, KEYS);
  const profiling = process.env.SPEED_PROFILE === '1' ? await startProfile(page) : undefined;
  const atEnd = await typeTimed(page, text);
  const paragraphs = editor.locator(':scope > p');
  await paragraphs.nth(Math.floor((await paragraphs.count()) / 2)).click();
  await page.keyboard.press('Home');
  const inMiddle = await typeTimed(page, text);
  if (profiling) await printProfile(profiling, url);
  return [...atEnd, ...inMiddle];
}

async function startProfile(page: Page): Promise<CDPSession> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  return cdp;
}

async function printProfile(cdp: CDPSession, url: string) {
  const { profile } = (await cdp.send('Profiler.stop')) as { profile: CpuProfile };
  const { total, byFunction } = selfTime(profile);
  console.log(`CPU profile of the typing on ${url}: ${total.toFixed(0)} ms sampled; heaviest self time:`);
  for (const line of heaviest(byFunction, 30)) console.log(line);
  await cdp.detach();
}

const PAINT_WATCH = `(() => {
  const painted = (window.__painted = {});
  const check = () => {
    // The read-only preview (role document) shows the page's text while the co-edited editor (role textbox) connects.
    const el = document.querySelector('[aria-label="Page content"]');
    if (!el) return;
    if (painted.first === undefined && el.querySelector(':scope > p')) painted.first = null;
    if (painted.last === undefined && el.textContent.includes('The very end.')) painted.last = null;
    const editor = document.querySelector('[role="textbox"][aria-label="Page content"]');
    if (painted.editable === undefined && editor?.textContent.includes('The very end.')) painted.editable = null;
    for (const k of ['first', 'last', 'editable'])
      if (painted[k] === null) { painted[k] = -1; requestAnimationFrame(() => { painted[k] = performance.now(); }); }
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, characterData: true });
})()`;
const watched = new WeakSet<Page>();

/**
 * Navigation to the page until the frame that paints its first paragraph, and its last one (ms from the navigation's
 * start, read in the page: a MutationObserver notes when the paragraph is in the editor, the next animation frame is when
 * it is painted; so work the page does after that frame, such as drawing diagrams, does not count).
 */
type Opened = { first: number; last: number; editable: number };

async function opening(page: Page, url: string): Promise<Opened> {
  if (!watched.has(page)) {
    watched.add(page);
    await page.addInitScript(PAINT_WATCH);
  }
  await page.goto('about:blank');
  await page.goto(url);
  await page.waitForFunction(
    () => {
      const painted = (window as unknown as { __painted?: Opened }).__painted;
      return (painted?.first ?? 0) > 0 && (painted?.last ?? 0) > 0 && (painted?.editable ?? 0) > 0;
    },
    undefined,
    { timeout: 60_000 },
  );
  return page.evaluate('window.__painted') as Promise<Opened>;
}

const target = await startTarget('pglite', { WEB_DIST_DIR: DIST, WORKERS: '0' });
const browser = await launchChromium();
try {
  const shell = shellScripts();
  const shellBytes = shell.reduce((s, f) => s + f.gzip, 0);
  console.log(`shell JavaScript: ${(shellBytes / 1024).toFixed(1)} KB gzipped in ${shell.length} files (goal ≤ 250 KB)`);

  const email = `speed-${Date.now()}@example.test`;
  const { token } = (await target.call('POST', '/api/v1/auth/signup', undefined, { email, password: PASSWORD, name: 'Bench' })).data;
  const ws = (await target.call('POST', '/api/v1/workspaces', token, { name: 'Bench', hostname: `speed${Date.now() % 1e6}` })).data;
  await target.call('PUT', `/api/v1/workspaces/${ws.id}`, token, { settings: { allowPublicPages: true } });
  const space = (await target.call('POST', '/api/v1/spaces', token, { workspaceId: ws.id, name: 'Handbook' })).data;
  const made = async (title: string, markdown: string) => {
    const p = (await target.call('POST', '/api/v1/pages', token, { workspaceId: ws.id, spaceId: space.id, title, markdown })).data;
    return { id: p.id as string, url: `/w/${ws.hostname}/s/${space.slug}/p/${p.slug}-${p.id}` };
  };
  const holder = await made('Pictures', 'x');
  const picture = (
    await target.call('POST', '/api/v1/attachments', token, {
      workspaceId: ws.id,
      pageId: holder.id,
      filename: 'dot.png',
      contentType: 'image/png',
      data: PNG.toString('base64'),
    })
  ).data;
  const attachment = `/api/v1/attachments/${picture.id}/download`;
  const allBlocks = await made('Every block', allBlocksMarkdown(2000, attachment));
  const plain = await made('Plain page', plainMarkdown(2000));
  const heavy = await made('Diagrams and embeds', diagramsAndEmbedsMarkdown(1000, true));
  const light = await made('Same text', diagramsAndEmbedsMarkdown(1000, false));

  const page = await signedInPage(browser, target.appUrl, email, PASSWORD);
  if (PARTS.has('typing')) {
    const typed = { plain: [] as number[], allBlocks: [] as number[] };
    for (let round = 0; round < ROUNDS; round++) {
      typed.plain.push(...(await typing(page, plain.url)));
      typed.allBlocks.push(...(await typing(page, allBlocks.url)));
    }
    console.log(describeLatencies({ label: 'keystroke to paint, plain 2,000-word page', sorted: [...typed.plain].sort((a, b) => a - b) }));
    console.log(describeLatencies({ label: 'keystroke to paint, 2,000 words with every block', sorted: [...typed.allBlocks].sort((a, b) => a - b) }));
    console.log(`typing p95 ratio (every block / plain): ${(p95(typed.allBlocks) / p95(typed.plain)).toFixed(2)}× (goal ≤ 2×)`);
  }

  if (PARTS.has('open')) {
    const opens = { heavy: [] as Opened[], light: [] as Opened[] };
    for (let round = 0; round < OPENS; round++) {
      opens.light.push(await opening(page, light.url));
      opens.heavy.push(await opening(page, heavy.url));
    }
    for (const k of ['first', 'last', 'editable'] as const) {
      const h = Math.round(median(opens.heavy.map((o) => o[k])));
      const l = Math.round(median(opens.light.map((o) => o[k])));
      console.log(
        `open, ${k === 'editable' ? 'the editor connected with all the text' : `${k} paragraph shown`}: 10 diagrams + 10 embeds ${h} ms, without ${l} ms (${(h / l).toFixed(2)}×, goal ≤ 1×)`,
      );
    }
  }
  await page.context().close();

  if (PARTS.has('lighthouse')) {
    const share = (await target.call('POST', `/api/v1/pages/${allBlocks.id}/share`, token, {})).data;
    const cookie = { Cookie: `kb_session=${token}` };
    const screens: [string, string, Record<string, string>][] = [
      ['sign-in', '/login', {}],
      ['workspace home', `/w/${ws.hostname}`, cookie],
      ['2,000 words, every block', allBlocks.url, cookie],
      ['public share of it', new URL(share.url).pathname, {}],
    ];
    for (const [label, url, headers] of screens) {
      const runs: LighthouseFigures[] = [];
      for (let i = 0; i < LH_RUNS; i++) runs.push(await lighthouse(`${target.appUrl}${url}`, headers));
      console.log(`lighthouse ${label}: ${JSON.stringify(medianFigures(runs))}`);
    }
  }
  console.log(
    `load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
} finally {
  await browser.close();
  await target.close();
}
