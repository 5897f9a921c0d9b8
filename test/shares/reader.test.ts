import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import type { TestUser } from '../helpers/factories.js';
import { createPage } from '../spaces/helpers.js';
import { publish, restrict, sharedSetup, tokenOf } from './helpers.js';

/** The public reader at /s/<token>: a server-rendered HTML page, not the signed-in web app. */

let t: TestApp;
const PUBLIC_URL = 'https://kb.example.com';
/** A stand-in for the built web app: the reader must never answer with it. */
const webDist = mkdtempSync(path.join(tmpdir(), 'kb-web-'));
const APP_SHELL = '<!doctype html><title>kb app</title><script type="module" src="/assets/index-abc.js"></script>';
beforeAll(async () => {
  writeFileSync(path.join(webDist, 'index.html'), APP_SHELL);
  t = await createTestApp({ WEB_DIST_DIR: webDist, PUBLIC_URL });
});
afterAll(async () => {
  await t.close();
  rmSync(webDist, { recursive: true, force: true });
});

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

async function upload(user: TestUser, workspaceId: string, pageId: string) {
  const res = await t.request({
    method: 'POST',
    url: '/api/v1/attachments',
    token: user.token,
    body: { workspaceId, pageId, filename: 'dot.png', contentType: 'image/png', data: PNG.toString('base64') },
  });
  if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.id as string;
}

async function write(user: TestUser, pageId: string, body: object) {
  const res = await t.request({ method: 'PUT', url: `/api/v1/pages/${pageId}`, token: user.token, body });
  if (res.status !== 200) throw new Error(`write failed: ${res.status} ${JSON.stringify(res.body)}`);
}

const para = (...content: object[]) => ({ type: 'paragraph', content });
const txt = (text: string, marks?: object[]) => ({ type: 'text', text, ...(marks ? { marks } : {}) });

/** GET as a visitor: no credentials, the body as text. */
async function open(url: string, headers: Record<string, string> = {}) {
  const res = await t.app.inject({ method: 'GET', url, headers });
  return { status: res.statusCode, headers: res.headers, html: res.body, raw: res };
}

/** The `content` of `<meta {attr}="{key}">`, as the browser reads it (entities decoded). */
function metaOf(html: string, key: string): string | undefined {
  const m = new RegExp(`<meta (?:name|property)="${key}" content="([^"]*)">`).exec(html);
  return m ? decode(m[1]) : undefined;
}
const decode = (s: string) => s.replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n))).replace(/&amp;/g, '&');

/**
 * Welcome (shared with its subtree) ── Chapter
 *                                   ├─ Secret (restricted) ── Below secret
 *                                   └─ Old (trashed)
 * Outside (not shared)
 */
async function handbook() {
  const s = await sharedSetup(t);
  const { workspace, editor, space, page: root } = s;
  const chapter = await createPage(t, editor, workspace.id, space.id, 'Chapter', root.id);
  const secret = await createPage(t, editor, workspace.id, space.id, 'Secret plans', root.id);
  const below = await createPage(t, editor, workspace.id, space.id, 'Below secret', secret.id);
  const old = await createPage(t, editor, workspace.id, space.id, 'Old news', root.id);
  const outside = await createPage(t, editor, workspace.id, space.id, 'Outside');
  await restrict(t, workspace.id, secret.id, [below.id], [editor]);
  expect((await t.request({ method: 'DELETE', url: `/api/v1/pages/${old.id}`, token: editor.token })).status).toBe(200);
  const picture = await upload(editor, workspace.id, root.id);
  await write(editor, root.id, {
    content: {
      type: 'doc',
      content: [
        para(txt('Everything a newcomer needs, in one place.')),
        { type: 'heading', attrs: { level: 2 }, content: [txt('First steps')] },
        para(
          txt('Read the '),
          txt('chapter', [{ type: 'link', attrs: { href: `/api/v1/pages/${chapter.id}` } }]),
          txt(', not the '),
          txt('secret', [{ type: 'link', attrs: { href: `/api/v1/pages/${secret.id}` } }]),
          txt(', and '),
          txt('bold', [{ type: 'bold' }]),
          txt(' on '),
          txt('the site', [{ type: 'link', attrs: { href: 'https://example.org/about' } }]),
          txt('.'),
        ),
        { type: 'image', attrs: { src: `/api/v1/attachments/${picture}/download`, alt: 'A red dot' } },
        { type: 'codeBlock', attrs: { language: 'js' }, content: [txt('const a = 1 < 2;')] },
        {
          type: 'taskList',
          content: [{ type: 'taskItem', attrs: { checked: true }, content: [para(txt('Get a laptop'))] }],
        },
      ],
    },
  });
  const { url } = (await publish(t, editor, root.id, { includeSubtree: true })).body.data;
  return { ...s, root, chapter, secret, below, old, outside, picture, token: tokenOf(url) as string, url: url as string };
}

describe('the public reader: a server-rendered page', () => {
  it('answers the shared page as HTML with its title, description, Open Graph tags and a canonical link', async () => {
    const { token, url } = await handbook();
    expect(url).toBe(`${PUBLIC_URL}/s/${token}`);
    const res = await open(`/s/${token}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    const { html } = res;
    expect(html).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(html).toContain('<title>Welcome</title>');
    expect(metaOf(html, 'description')).toBe(
      'Everything a newcomer needs, in one place. First steps Read the chapter, not the secret, and bold on the site. Get a laptop',
    );
    expect(metaOf(html, 'og:type')).toBe('article');
    expect(metaOf(html, 'og:title')).toBe('Welcome');
    expect(metaOf(html, 'og:description')).toBe(metaOf(html, 'description'));
    expect(metaOf(html, 'og:url')).toBe(`${PUBLIC_URL}/s/${token}`);
    expect(metaOf(html, 'og:image')).toMatch(new RegExp(`^${PUBLIC_URL}/api/v1/public/shares/${token}/attachments/`));
    expect(metaOf(html, 'twitter:card')).toBe('summary_large_image');
    expect(metaOf(html, 'twitter:title')).toBe('Welcome');
    expect(html).toContain(`<link rel="canonical" href="${PUBLIC_URL}/s/${token}">`);
    expect(html).toContain('<h1 class="title">Welcome</h1>');
    expect(html).toContain('Published with kb');
  });

  it('renders the content as semantic HTML: headings with ids, marks, code, tasks, and public image and page links', async () => {
    const { token, chapter, picture } = await handbook();
    const { html } = await open(`/s/${token}`);
    expect(html).toContain('<p>Everything a newcomer needs, in one place.</p>');
    expect(html).toContain('<h2 id="first-steps">First steps</h2>');
    // Inside the share: a link to the reader, opened in place; outside it (the restricted page): plain text.
    expect(html).toContain(`Read the <a href="/s/${token}/${chapter.id}">chapter</a>, not the secret, and <strong>bold</strong>`);
    expect(html).toContain('<a href="https://example.org/about" target="_blank" rel="noopener noreferrer nofollow">the site</a>');
    expect(html).toContain(`<img src="/api/v1/public/shares/${token}/attachments/${picture}" alt="A red dot" loading="lazy" decoding="async">`);
    expect(html).toContain('<pre><code class="language-js">const a = 1 &lt; 2;</code></pre>');
    expect(html).toMatch(/<li data-checked="true" data-type="taskItem"><input type="checkbox" checked="checked" disabled="" aria-label="Get a laptop">/);
    // The image it names is served to the visitor.
    const img = await t.app.inject({ method: 'GET', url: `/api/v1/public/shares/${token}/attachments/${picture}` });
    expect(img.statusCode).toBe(200);
    expect(img.headers['content-type']).toBe('image/png');
  });

  it('is not the web app: no app bundle, one inline script allowed by its hash in a strict CSP', async () => {
    const { token } = await handbook();
    const res = await open(`/s/${token}`);
    expect(res.html).not.toContain('kb app');
    expect(res.html).not.toContain('/assets/');
    const scripts = [...res.html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts).toHaveLength(1);
    expect(scripts[0][1]).toBe(''); // inline, no src
    const csp = String(res.headers['content-security-policy']);
    const hash = (s: string) => `'sha256-${createHash('sha256').update(s).digest('base64')}'`;
    expect(csp).toContain(`script-src ${hash(scripts[0][2])}`);
    const style = /<style>([\s\S]*?)<\/style>/.exec(res.html)?.[1] ?? '';
    expect(csp).toContain(`style-src ${hash(style)}`);
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    // No session is read or made: nothing is fetched from the API by the page, no cookie is set.
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.html).not.toMatch(/fetch\(|XMLHttpRequest|\/api\/v1\/(auth|users|session)/);
  });

  it('is revalidated on every visit (private, no-cache, ETag → 304), and sent compressed', async () => {
    const { token } = await handbook();
    const first = await open(`/s/${token}`);
    expect(first.headers['cache-control']).toBe('private, no-cache');
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await open(`/s/${token}`, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.html).toBe('');
    const gz = await open(`/s/${token}`, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers.vary).toContain('accept-encoding');
    expect(gunzipSync(gz.raw.rawPayload).toString()).toBe(first.html);
  });

  it('escapes a hostile title and text in the title, meta tags and body', async () => {
    const s = await sharedSetup(t);
    const hostile = `</title><script>alert(1)</script>"><img src=x onerror=alert(2)> & 'q'`;
    await write(s.editor, s.page.id, {
      title: hostile,
      content: { type: 'doc', content: [para(txt(`<script>alert(3)</script> "quoted" & <b>not bold</b>`))] },
    });
    const token = tokenOf((await publish(t, s.editor, s.page.id)).body.data.url);
    const { html, status } = await open(`/s/${token}`);
    expect(status).toBe(200);
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('<img src=x');
    expect(html).not.toContain('<b>not bold</b>');
    expect([...html.matchAll(/<script/g)]).toHaveLength(1);
    expect(html).toContain(
      `<title>&#60;/title&#62;&#60;script&#62;alert(1)&#60;/script&#62;&#34;&#62;&#60;img src=x onerror=alert(2)&#62; &#38; &#39;q&#39;</title>`,
    );
    expect(metaOf(html, 'og:title')).toBe(hostile);
    expect(metaOf(html, 'twitter:title')).toBe(hostile);
    expect(metaOf(html, 'description')).toBe(`<script>alert(3)</script> "quoted" & <b>not bold</b>`);
    expect(html).toContain('<p>&lt;script&gt;alert(3)&lt;/script&gt; "quoted" &amp; &lt;b&gt;not bold&lt;/b&gt;</p>');
  });

  it('sanitizes what a stored document could hold: script links, frames, handlers and styles never reach the page', async () => {
    const s = await sharedSetup(t);
    const token = tokenOf((await publish(t, s.editor, s.page.id)).body.data.url);
    // Stored content is trusted to have been checked when written: written here past the checks, as a bug or an old row might.
    const content = {
      type: 'doc',
      content: [
        para(
          txt('click', [{ type: 'link', attrs: { href: 'javascript:alert(1)' } }]),
          txt(' and '),
          txt('this', [{ type: 'link', attrs: { href: ' java\tscript:alert(2)' } }]),
        ),
        { type: 'image', attrs: { src: 'javascript:alert(3)', alt: 'bad picture' } },
        { type: 'image', attrs: { src: 'data:image/svg+xml,<svg onload=alert(4)>', alt: 'svg picture' } },
      ],
    };
    await t.database.db
      .updateTable('pages')
      .set({ content: JSON.stringify(content) as never })
      .where('id', '=', s.page.id)
      .execute();
    const { html, status } = await open(`/s/${token}`);
    expect(status).toBe(200);
    expect(html).not.toMatch(/javascript|java\tscript|onload|svg\+xml/i);
    expect(html).toContain('<p>click and this</p>');
    expect(html).toContain('<p>bad picture</p><p>svg picture</p>');
  });

  it('lists the shared pages and the pages under this one; restricted and trashed pages never appear or open', async () => {
    const { token, root, chapter, secret, below, old, outside, editor, workspace, space } = await handbook();
    const grandchild = await createPage(t, editor, workspace.id, space.id, 'Deeper', chapter.id);
    const { html } = await open(`/s/${token}`);
    expect(html).toContain('<nav class="pages" aria-label="Shared pages">');
    expect(html).toContain(`<a href="/s/${token}" aria-current="page">Welcome</a>`);
    expect(html).toContain(`<a href="/s/${token}/${chapter.id}">Chapter</a>`);
    expect(html).toContain(`<a href="/s/${token}/${grandchild.id}">Deeper</a>`);
    expect(html).toMatch(/<h2 id="children">Pages under this one<\/h2><ul><li><a href="[^"]+">Chapter<\/a><\/li><\/ul>/);
    for (const hidden of ['Secret plans', 'Below secret', 'Old news', 'Outside', secret.id, below.id, old.id, outside.id]) expect(html).not.toContain(hidden);

    const child = await open(`/s/${token}/${chapter.id}`);
    expect(child.status).toBe(200);
    expect(child.html).toContain('<title>Chapter</title>');
    expect(child.html).toContain(`<link rel="canonical" href="${PUBLIC_URL}/s/${token}/${chapter.id}">`);
    expect(child.html).toContain(`<a href="/s/${token}/${chapter.id}" aria-current="page">Chapter</a>`);
    expect(child.html).toContain(`<a href="/s/${token}/${grandchild.id}">Deeper</a></li></ul></section>`);
    // The root by its id is the same page.
    expect((await open(`/s/${token}/${root.id}`)).status).toBe(200);

    for (const id of [secret.id, below.id, old.id, outside.id, '00000000-0000-7000-8000-000000000000', 'not-an-id']) {
      const res = await open(`/s/${token}/${id}`);
      expect(res.status, id).toBe(404);
      expect(res.html).toContain('This link is no longer available');
      expect(res.html).not.toMatch(/Secret plans|Below secret|Old news|Outside/);
    }
  });

  it('shares the page alone without includeSubtree: no side list, its children not reachable', async () => {
    const s = await sharedSetup(t);
    const child = await createPage(t, s.editor, s.workspace.id, s.space.id, 'Child page', s.page.id);
    const token = tokenOf((await publish(t, s.editor, s.page.id)).body.data.url);
    const { html } = await open(`/s/${token}`);
    expect(html).not.toContain('<nav');
    expect(html).not.toContain('Child page');
    expect((await open(`/s/${token}/${child.id}`)).status).toBe(404);
  });

  it('is noindex (header and meta) unless the share allows search engines', async () => {
    const s = await sharedSetup(t);
    const other = await createPage(t, s.editor, s.workspace.id, s.space.id, 'Open');
    const closed = tokenOf((await publish(t, s.editor, s.page.id)).body.data.url);
    const open_ = tokenOf((await publish(t, s.editor, other.id, { allowIndexing: true })).body.data.url);
    const a = await open(`/s/${closed}`);
    expect(a.headers['x-robots-tag']).toBe('noindex');
    expect(metaOf(a.html, 'robots')).toBe('noindex');
    const b = await open(`/s/${open_}`);
    expect(b.headers['x-robots-tag']).toBeUndefined();
    expect(metaOf(b.html, 'robots')).toBeUndefined();
  });

  it('answers a revoked, unknown or malformed link with the same 404 HTML page, never cached', async () => {
    const { token, editor, root, url } = await handbook();
    expect((await open(`/s/${token}`)).status).toBe(200);
    const share = (await t.request({ url: `/api/v1/pages/${root.id}/share`, token: editor.token })).body.data;
    expect((await t.request({ method: 'DELETE', url: `/api/v1/shares/${share.id}`, token: editor.token })).status).toBe(200);
    const pages: string[] = [];
    for (const u of [`/s/${token}`, `/s/${'x'.repeat(43)}`, '/s/%3Cscript%3E', `/s/${token}/a/b`]) {
      const res = await open(u);
      expect(res.status, u).toBe(404);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['cache-control']).toBe('private, no-store');
      expect(res.headers['x-robots-tag']).toBe('noindex');
      expect(res.html).toContain('<h1>This link is no longer available</h1>');
      expect(res.html).not.toContain('<script');
      pages.push(res.html);
    }
    expect(new Set(pages).size).toBe(1);
    // The JSON answer for scripts is unchanged.
    const json = await t.request({ url: `/api/v1/public/shares/${tokenOf(url)}` });
    expect(json.status).toBe(404);
    expect(json.body.error.message).toBe('This link is no longer available');
  });

  it('dies when public pages are switched off for the workspace', async () => {
    const { token, admin, workspace } = await handbook();
    await t.request({ method: 'PUT', url: `/api/v1/workspaces/${workspace.id}`, token: admin.token, body: { settings: { allowPublicPages: false } } });
    expect((await open(`/s/${token}`)).status).toBe(404);
  });

  it('leaves the rest of the web app to the app shell', async () => {
    const login = await open('/login');
    expect(login.status).toBe(200);
    expect(login.html).toBe(APP_SHELL);
    expect(login.headers['x-robots-tag']).toBeUndefined();
  });
});
