import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkDocumentDepth,
  documentToMarkdown,
  documentToText,
  isAllowedImageUrl,
  isAllowedLinkUrl,
  markdownToDocument,
  validateDocument,
} from '../../src/editor/index.js';
import { AppError } from '../../src/errors.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { type TestUser, workspaceWithRoles } from '../helpers/factories.js';
import { createSpace } from '../spaces/helpers.js';

/** Regressions from issue 11: script URLs hidden from a scheme deny-list, and content nested deep enough to overflow the stack. */

let t: TestApp;
let ws: string;
let space: string;
let editor: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  const w = await workspaceWithRoles(t);
  ws = w.workspace.id;
  editor = w.editor;
  space = (await createSpace(t, w.admin, ws, { name: 'Safety' })).id;
});
afterAll(() => t.close());

const linked = (href: string) => ({
  type: 'doc',
  content: [{ type: 'paragraph', content: [{ type: 'text', text: 'click', marks: [{ type: 'link', attrs: { href } }] }] }],
});
const imaged = (src: string) => ({ type: 'doc', content: [{ type: 'image', attrs: { src } }] });

/** A page body as raw JSON text: light-my-request would itself overflow stringifying a deep object. */
function createPageRaw(json: string) {
  return t.request({
    method: 'POST',
    url: '/api/v1/pages',
    token: editor.token,
    headers: { 'content-type': 'application/json' },
    body: `{"workspaceId":"${ws}","spaceId":"${space}","title":"Deep",${json}}`,
  });
}

async function pageTitles(): Promise<string[]> {
  const res = await t.request({ url: '/api/v1/pages', token: editor.token, query: { workspaceId: ws, spaceId: space, limit: '100' } });
  expect(res.status).toBe(200);
  return res.body.data.map((p: { title: string }) => p.title);
}

describe('link and image URLs', () => {
  const hiddenScripts = [
    'java\tscript:alert(1)',
    'java\nscript:alert(1)',
    ' \u0001javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    'vbscript:x',
    '\u001fjavascript:x',
  ];
  // (a NUL never reaches the editor over HTTP: bodies holding one are refused earlier)

  it('refuses script schemes hidden by tabs, newlines and C0 controls, in links and images', async () => {
    for (const url of hiddenScripts) {
      for (const content of [linked(url), imaged(url)]) {
        const res = await t.request({
          method: 'POST',
          url: '/api/v1/pages',
          token: editor.token,
          body: { workspaceId: ws, spaceId: space, title: 'X', content },
        });
        expect(res.status, JSON.stringify(url)).toBe(422);
        expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'content', reason: 'uses a URL scheme that is not allowed' } });
      }
    }
    expect(await pageTitles()).not.toContain('X');
  });

  it('allows only http, https, mailto and relative links', () => {
    for (const ok of [
      'https://example.com/a?b#c',
      'http://x',
      'mailto:a@example.com',
      '/api/v1/attachments/abc/content',
      'other-page',
      '#top',
      '?q=1',
      '//cdn.example.com/x',
    ])
      expect(isAllowedLinkUrl(ok), ok).toBe(true);
    for (const bad of [
      ...hiddenScripts,
      '\u0000javascript:x',
      'data:text/html,<script>',
      'data:image/png;base64,AA',
      'file:///etc/passwd',
      'ftp://x',
      'tel:123',
      'c:\\x',
    ])
      expect(isAllowedLinkUrl(bad), bad).toBe(false);
  });

  it('allows http, https, relative (attachments) and raster data: images only', () => {
    for (const ok of ['https://x/i.png', '/api/v1/attachments/abc/content', 'local/b.png', 'data:image/png;base64,AA', 'data:image/jpeg;base64,AA'])
      expect(isAllowedImageUrl(ok), ok).toBe(true);
    for (const bad of [...hiddenScripts, 'data:image/svg+xml;base64,AA', 'data:text/html,x', 'mailto:a@b', 'file:///x'])
      expect(isAllowedImageUrl(bad), bad).toBe(false);
  });

  it('stores a page with allowed URLs and reads them back unchanged', async () => {
    const content = {
      type: 'doc',
      content: [...linked('mailto:team@example.com').content, ...imaged('/api/v1/attachments/a1/content').content],
    };
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/pages',
      token: editor.token,
      body: { workspaceId: ws, spaceId: space, title: 'Links', content },
    });
    expect(res.status).toBe(201);
    const read = await t.request({ url: `/api/v1/pages/${res.body.data.id}`, token: editor.token });
    expect(read.body.data.content.content[0].content[0].marks[0].attrs.href).toBe('mailto:team@example.com');
    expect(read.body.data.content.content[1].attrs.src).toBe('/api/v1/attachments/a1/content');
  });

  it('still reads content stored under the earlier rules (a tel: link), though a write of it is refused', () => {
    const stored = linked('tel:+15551234');
    expect(() => validateDocument(stored)).toThrow(AppError);
    expect(documentToText(stored)).toBe('click');
    expect(documentToMarkdown(stored)).toBe('[click](tel:+15551234)\n');
  });

  it('keeps Markdown links and images whose URL suits only the other kind as text, never a 422', () => {
    const json = markdownToDocument('[pic](data:image/png;base64,AA) ![mail](mailto:a@b.c) [who](mention:u1 "t") [ftp](ftp://x)\n');
    expect(JSON.stringify(json)).not.toMatch(/"link"|"image"/);
    expect(documentToText(json)).toContain('pic');
    expect(documentToText(json)).toContain('mail');
  });
});

describe('deeply nested content', () => {
  const blockquotes = (depth: number) => '{"type":"blockquote","content":['.repeat(depth) + '{"type":"paragraph"}' + ']}'.repeat(depth);

  it('answers 422 (not 500) for content nested 5,000 deep, and stores nothing', async () => {
    const res = await createPageRaw(`"content":{"type":"doc","content":[${blockquotes(5000)}]}`);
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    // The HTTP body-depth cap (src/http/json-body.ts) answers first ('body'); the editor's own check ('content')
    // backs it for every way in that is not an HTTP body.
    expect(['body', 'content']).toContain(res.body.error.details.field);
    expect(await pageTitles()).not.toContain('Deep');
  });

  it('refuses a 5,000-deep document in the editor itself, before anything recursive runs', () => {
    const deep = JSON.parse(`{"type":"doc","content":[${blockquotes(5000)}]}`);
    const deepAttr = JSON.parse(`{"type":"doc","content":[{"type":"image","attrs":{"src":"https://x/i.png","title":${'['.repeat(5000)}${']'.repeat(5000)}}}]}`);
    for (const json of [deep, deepAttr]) {
      for (const use of [() => checkDocumentDepth(json), () => validateDocument(json), () => documentToText(json), () => documentToMarkdown(json)]) {
        let thrown: unknown;
        try {
          use();
        } catch (err) {
          thrown = err;
        }
        expect(thrown).toBeInstanceOf(AppError);
        expect((thrown as AppError).details).toMatchObject({ field: 'content', reason: 'nested deeper than 200 JSON levels' });
      }
    }
    expect(() => checkDocumentDepth(JSON.parse(`{"type":"doc","content":[${blockquotes(60)}]}`))).not.toThrow();
  });

  it('still accepts content nested 60 levels deep', async () => {
    const res = await createPageRaw(`"content":{"type":"doc","content":[${blockquotes(60)}]}`);
    expect(res.status).toBe(201);
  });

  const deepMarkdown = {
    blockquotes: `${'>'.repeat(5000)} deep\n`,
    'nested bullet markers': `${'- '.repeat(5000)}deep\n`,
    'indented nested lists': Array.from({ length: 2000 }, (_, i) => `${' '.repeat(i * 2)}- item\n`).join(''),
  };
  for (const [name, markdown] of Object.entries(deepMarkdown)) {
    it(`answers in the error shape (never 500) for Markdown of ${name}`, async () => {
      const res = await t.request({
        method: 'POST',
        url: '/api/v1/pages',
        token: editor.token,
        body: { workspaceId: ws, spaceId: space, title: 'Deep md', markdown },
      });
      expect([201, 422]).toContain(res.status);
      if (res.status === 422) expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'markdown' } });
    });
  }
});
