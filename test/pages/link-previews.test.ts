import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, siblingApp, type TestApp } from '../helpers/app.js';
import { workspaceWithRoles } from '../helpers/factories.js';
import { createSpace } from '../spaces/helpers.js';

/**
 * GET /api/v1/link-preview: a page's title, description, site name and icon read by the server through research's
 * outbound fetcher. The default app refuses loopback (422); a sibling app over the same database allows 127.0.0.1
 * (RESEARCH_ALLOWED_NETWORKS, as the research tests do) and reads pages from a local server.
 */

let t: TestApp;
let ws: Awaited<ReturnType<typeof workspaceWithRoles>>;
let open: Awaited<ReturnType<typeof siblingApp>>;
let site: http.Server;
let base: string;
const hits: Record<string, number> = {};

const ARTICLE = `<!doctype html><html><head>
<meta charset="utf-8">
<title>Fallback title</title>
<meta property="og:title" content="Caching &amp; you">
<meta property="og:description" content="How   the cache
keeps hot records for five minutes.">
<meta property="og:site_name" content="Ops Handbook">
<link rel="apple-touch-icon" href="/touch.png">
<link rel="shortcut icon" href="/static/fav.png">
</head><body><meta property="og:title" content="Not this one"><p>Body</p></body></html>`;

beforeAll(async () => {
  site = http.createServer((req, res) => {
    const path = req.url ?? '/';
    hits[path] = (hits[path] ?? 0) + 1;
    if (path === '/article') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ARTICLE);
    else if (path === '/plain-title')
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html><head><title> Just   a title </title></head><body></body></html>');
    else if (path === '/moved') res.writeHead(302, { location: '/article' }).end();
    else if (path === '/to-private') res.writeHead(302, { location: 'http://127.0.0.2:9/secret' }).end();
    else if (path === '/data.json') res.writeHead(200, { 'content-type': 'application/json' }).end('{"title":"no"}');
    else if (path === '/hang') {
      // never answers: the preview gives up at LINK_PREVIEW_TIMEOUT_MS
    } else res.writeHead(404, { 'content-type': 'text/html' }).end('<title>Not found</title>');
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  t = await createTestApp();
  ws = await workspaceWithRoles(t);
  open = await siblingApp(t, {}, { RESEARCH_ALLOWED_NETWORKS: '127.0.0.1/32', LINK_PREVIEW_TIMEOUT_MS: 700, LINK_PREVIEW_RATE_LIMIT_MAX: 40 });
});
afterAll(async () => {
  await open?.app.close();
  await t?.close();
  site?.closeAllConnections();
  await new Promise((r) => site?.close(r));
});

const preview = (url: string, token = ws.viewer.token, request = open.request) =>
  request({ url: '/api/v1/link-preview', token, query: { url, workspaceId: ws.workspace.id } });

describe('GET /api/v1/link-preview', () => {
  it('reads og:title, og:description, og:site_name and the icon of an HTML page (a viewer may ask); a second ask is cached', async () => {
    const res = await preview(`${base}/article`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      data: {
        url: `${base}/article`,
        host: '127.0.0.1',
        title: 'Caching & you',
        description: 'How the cache keeps hot records for five minutes.',
        siteName: 'Ops Handbook',
        iconUrl: `${base}/static/fav.png`,
        reachable: true,
      },
    });
    const again = await preview(`${base}/article`, ws.editor.token);
    expect(again.body).toEqual(res.body);
    expect(hits['/article']).toBe(1);
  });

  it('falls back to <title> and /favicon.ico, and follows a redirect', async () => {
    const plain = await preview(`${base}/plain-title`);
    expect(plain.status).toBe(200);
    expect(plain.body.data).toMatchObject({ title: 'Just a title', description: null, siteName: null, iconUrl: `${base}/favicon.ico`, reachable: true });
    const moved = await preview(`${base}/moved`);
    expect(moved.body.data).toMatchObject({ url: `${base}/moved`, title: 'Caching & you', iconUrl: `${base}/static/fav.png` });
  });

  it('a page that cannot be read gives a card with just the host: an error status, not HTML, a timeout, nothing listening', async () => {
    for (const url of [`${base}/missing`, `${base}/data.json`, `${base}/hang`, 'http://127.0.0.1:9/closed']) {
      const res = await preview(url);
      expect(res.status, url).toBe(200);
      expect(res.body.data, url).toEqual({ url, host: '127.0.0.1', title: null, description: null, siteName: null, iconUrl: null, reachable: false });
    }
  });

  it('refuses a loopback address by default with 422 (never fetching it), and a redirect to a private address everywhere', async () => {
    const before = hits['/article'] ?? 0;
    for (const url of [`${base}/article`, 'http://localhost/x', 'http://[::1]/x', 'http://169.254.169.254/latest/meta-data/']) {
      const res = await preview(url, ws.viewer.token, t.request);
      expect(res.status, url).toBe(422);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'url', reason: 'private_address' } });
      expect(res.body.error.message).toMatch(/loopback or private address/);
    }
    expect(hits['/article'] ?? 0).toBe(before);
    const redirected = await preview(`${base}/to-private`);
    expect(redirected.status).toBe(422);
    expect(redirected.body.error.details.reason).toBe('private_address');
  });

  it('refuses links a card does not take (422) and callers who are not members (403) or not signed in (401)', async () => {
    for (const [url, reason] of [
      ['javascript:alert(1)', /http or https, not javascript:/],
      ['ftp://example.com/file', /http or https, not ftp:/],
      ['https://user:pw@example.com/', /user name or password/],
      [`https://example.com/${'a'.repeat(2100)}`, /at most 2048 characters/],
      ['example.com', /full http\(s\) address/],
    ] as const) {
      const res = await preview(url);
      expect(res.status, url).toBe(422);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'url', reason: 'invalid_url' } });
      expect(res.body.error.message).toMatch(reason);
    }
    expect((await preview(`${base}/article`, ws.outsider.token)).status).toBe(403);
    const anonymous = await open.request({ url: '/api/v1/link-preview', query: { url: `${base}/article`, workspaceId: ws.workspace.id } });
    expect(anonymous.status).toBe(401);
    const missing = await open.request({ url: '/api/v1/link-preview', token: ws.viewer.token, query: { workspaceId: ws.workspace.id } });
    expect(missing.status).toBeGreaterThanOrEqual(400);
    expect(missing.status).toBeLessThan(500);
  });

  it('is rate limited per user (429 with Retry-After past LINK_PREVIEW_RATE_LIMIT_MAX a minute)', async () => {
    let last = await preview(`${base}/article`, ws.admin.token);
    for (let i = 0; i < 40 && last.status === 200; i++) last = await preview(`${base}/article`, ws.admin.token);
    expect(last.status).toBe(429);
    expect(last.body.error.code).toBe('RATE_LIMITED');
    expect(last.headers['retry-after']).toBeDefined();
    // Another user is not held back by it.
    expect((await preview(`${base}/article`, ws.editor.token)).status).toBe(200);
  });

  it('a page keeps a link card: JSON and Markdown in, ::link[…] out, found by its kept title; a bad link is 422', async () => {
    const spaceId = (await createSpace(t, ws.admin, ws.workspace.id, { name: 'Links' })).id;
    const card = { type: 'linkCard', attrs: { url: 'https://example.com/zebra-guide', title: 'Quagga husbandry' } };
    const made = await t.request({
      method: 'POST',
      url: '/api/v1/pages',
      token: ws.editor.token,
      body: { workspaceId: ws.workspace.id, spaceId, title: 'Reading', content: { type: 'doc', content: [card] } },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const read = await t.request({ url: `/api/v1/pages/${made.body.data.id}`, token: ws.editor.token, query: { format: 'markdown' } });
    expect(read.body.data.content.content).toEqual([card]);
    expect(read.body.data.markdown).toBe('::link[https://example.com/zebra-guide]\n');
    const found = await t.request({ url: '/api/v1/search', token: ws.editor.token, query: { workspaceId: ws.workspace.id, query: 'quagga' } });
    expect(found.body.data.map((r: { id: string }) => r.id)).toContain(made.body.data.id);
    const fromMarkdown = await t.request({
      method: 'POST',
      url: '/api/v1/pages',
      token: ws.editor.token,
      body: { workspaceId: ws.workspace.id, spaceId, title: 'More reading', markdown: 'See:\n\n::link[http://example.org/a]\n' },
    });
    expect(fromMarkdown.status).toBe(201);
    const again = await t.request({ url: `/api/v1/pages/${fromMarkdown.body.data.id}`, token: ws.editor.token, query: { format: 'markdown' } });
    expect(again.body.data.markdown).toBe('See:\n\n::link[http://example.org/a]\n');
    const bad = await t.request({
      method: 'POST',
      url: '/api/v1/pages',
      token: ws.editor.token,
      body: {
        workspaceId: ws.workspace.id,
        spaceId,
        title: 'Bad',
        content: { type: 'doc', content: [{ type: 'linkCard', attrs: { url: 'javascript:alert(1)' } }] },
      },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.message).toContain("a link card's link must be http or https, not javascript:");
  });

  it('is in the OpenAPI document', async () => {
    const doc = await t.request({ url: '/api/openapi.json' });
    expect(doc.status).toBe(200);
    expect(Object.keys(doc.body.paths)).toContain('/api/v1/link-preview');
  });
});
