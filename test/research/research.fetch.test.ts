import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { htmlToText } from '../../src/areas/research/sources/html.js';
import type { Worker } from '../../src/jobs/worker.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { type TestUser, workspaceWithRoles } from '../helpers/factories.js';
import { createJob, fakeServer, html, json, researchUrl, researchWorker, waitForJob } from './helpers.js';

// Web result pages: the address rules on every redirect hop, and the size and time caps of one fetch.
let t: TestApp;
let ws: string;
let editor: TestUser;
let web: Awaited<ReturnType<typeof fakeServer>>;
let internal: http.Server;
let internalBase: string;
const internalSeen: string[] = [];
let hugeClosed = false;
const timers = new Set<NodeJS.Timeout>();

const CHUNK = 'Cache entries expire after five minutes, and the cache is warmed at start. '.repeat(200);

beforeAll(async () => {
  t = await createTestApp();
  const w = await workspaceWithRoles(t);
  ({ editor } = w);
  ws = w.workspace.id;
  // Another private address (127.0.0.2) that only a redirect names: it must never be asked.
  internal = http.createServer((req, res) => {
    internalSeen.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'text/plain' }).end('internal cache secrets');
  });
  await new Promise<void>((r) => internal.listen(0, '127.0.0.2', r));
  internalBase = `http://127.0.0.2:${(internal.address() as AddressInfo).port}`;
  web = await fakeServer({
    '/search': (req, res) => {
      const pages = new URL(req.url ?? '', 'http://x').searchParams.get('q')?.includes('limits')
        ? ['/huge', '/hang', '/trickle']
        : ['/pages/cache', '/to-internal', '/to-metadata'];
      json(res, 200, { results: pages.map((p) => ({ url: `${web.base}${p}`, title: '', content: '' })) });
    },
    '/pages/cache': (_req, res) => html(res, 'Cache guide', ['The cache keeps hot records in memory for five minutes.']),
    '/to-internal': (_req, res) => {
      res.writeHead(302, { location: `${internalBase}/admin` }).end();
    },
    '/to-metadata': (_req, res) => {
      res.writeHead(301, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
    },
    '/huge': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const timer = setInterval(() => res.write(CHUNK), 2);
      timers.add(timer);
      res.on('close', () => {
        hugeClosed = true;
        clearInterval(timer);
      });
    },
    '/hang': () => {},
    '/trickle': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const timer = setInterval(() => res.write('c'), 50);
      timers.add(timer);
      res.on('close', () => clearInterval(timer));
    },
  });
});
afterAll(async () => {
  for (const timer of timers) clearInterval(timer);
  await web?.close();
  internal?.closeAllConnections();
  await new Promise((r) => internal?.close(r));
  await t?.close();
});

async function webCoverage(config: Parameters<typeof researchWorker>[1], topic: string) {
  const worker: Worker = researchWorker(t, config);
  try {
    const job = await createJob(t, ws, editor, { topic, sources: ['web'] });
    const done = await waitForJob(t, ws, editor, job.id);
    expect(done.status).toBe('completed');
    const r = (await t.request({ url: researchUrl(ws, `/${job.id}/report`), token: editor.token })).body;
    return { done, report: r, web: r.coverage.find((c: { source: string }) => c.source === 'web') };
  } finally {
    await worker.stop();
  }
}

describe('research web fetches', () => {
  it('refuses a redirect to a private address even when the first address is allowed', async () => {
    const {
      done,
      web: coverage,
      report,
    } = await webCoverage({ config: { WEB_SEARCH_URL: web.base, RESEARCH_ALLOWED_NETWORKS: '127.0.0.1/32' } }, 'cache expiry');
    // The page on the allowed address was read; both redirects were refused before connecting.
    expect(done.documentsFound).toBe(1);
    expect(report.sources.map((s: { url: string }) => s.url)).toEqual([`${web.base}/pages/cache`]);
    expect(coverage.detail).toContain(`${web.base}/to-internal (refused: a loopback or private address)`);
    expect(coverage.detail).toContain(`${web.base}/to-metadata (refused: a loopback or private address)`);
    expect(internalSeen).toEqual([]);
    expect(JSON.stringify(report)).not.toContain('internal cache secrets');
  });

  it('cuts a page at RESEARCH_FETCH_MAX_BYTES and gives up on one past RESEARCH_FETCH_TIMEOUT_MS', async () => {
    const started = Date.now();
    const {
      done,
      web: coverage,
      report,
    } = await webCoverage(
      { config: { WEB_SEARCH_URL: web.base, RESEARCH_ALLOW_PRIVATE_NETWORK: true, RESEARCH_FETCH_MAX_BYTES: 64 * 1024, RESEARCH_FETCH_TIMEOUT_MS: 800 } },
      'cache limits',
    );
    expect(Date.now() - started).toBeLessThan(10_000);
    // The endless page was read up to the cap, and the connection closed.
    expect(done.documentsFound).toBe(1);
    expect(report.sources.map((s: { url: string }) => s.url)).toEqual([`${web.base}/huge`]);
    expect(coverage.detail).toContain(`${web.base}/huge (cut at 65536 bytes)`);
    expect(hugeClosed).toBe(true);
    // A page that never answers, and one that answers a byte at a time, both stop at the timeout.
    expect(coverage.detail).toContain(`${web.base}/hang (timed out after 800 ms)`);
    expect(coverage.detail).toContain(`${web.base}/trickle (timed out after 800 ms)`);
  });
});

describe('htmlToText', () => {
  it('keeps the title and the main text, without scripts, styles or navigation', () => {
    const page =
      '<!doctype html><html><head><title>Rollback &amp; canary</title><style>p { color: red }</style><script>var x = "<p>no</p>";</script></head>' +
      '<body><nav>Home | About</nav><main><h1>Releases</h1><p>A canary gets 5&nbsp;% of traffic.</p><p>Rollback<br>is instant.</p></main><footer>Copyright</footer></body></html>';
    expect(htmlToText(page)).toEqual({ title: 'Rollback & canary', text: 'Releases\n\nA canary gets 5 % of traffic.\n\nRollback\nis instant.' });
    expect(htmlToText('<p>plain <b>bold</b> text</p><div>next</div>').text).toBe('plain bold text\n\nnext');
  });

  it('takes linear time on unclosed tags and stray end tags', () => {
    for (const input of ['<a'.repeat(100_000), '<a '.repeat(70_000), `${'<div>'.repeat(40_000)}${'</span>'.repeat(40_000)}`]) {
      const started = performance.now();
      htmlToText(input);
      expect(performance.now() - started).toBeLessThan(1000);
    }
  });
});
