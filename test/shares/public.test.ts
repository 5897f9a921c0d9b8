import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import type { TestUser } from '../helpers/factories.js';
import { createPage } from '../spaces/helpers.js';
import { publish, restrict, sharedSetup, tokenOf, visit } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

async function upload(user: TestUser, workspaceId: string, pageId: string, filename: string, bytes: Buffer, contentType = 'image/png') {
  const res = await t.request({
    method: 'POST',
    url: '/api/v1/attachments',
    token: user.token,
    body: { workspaceId, pageId, filename, contentType, data: bytes.toString('base64') },
  });
  if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.id as string;
}

async function writeContent(user: TestUser, pageId: string, content: object) {
  const res = await t.request({ method: 'PUT', url: `/api/v1/pages/${pageId}`, token: user.token, body: { content } });
  if (res.status !== 200) throw new Error(`write failed: ${res.status} ${JSON.stringify(res.body)}`);
}

const paragraph = (...content: object[]) => ({ type: 'paragraph', content });
const text = (value: string, href?: string) =>
  href ? { type: 'text', text: value, marks: [{ type: 'link', attrs: { href } }] } : { type: 'text', text: value };
/** A paragraph's text nodes as [text] or [text, link]. */
const linksOf = (p: { content: Array<{ text: string; marks?: Array<{ type: string; attrs: { href: string } }> }> }) =>
  p.content.map((n) => {
    const link = n.marks?.find((m) => m.type === 'link');
    return link ? [n.text, link.attrs.href] : [n.text];
  });
const mention = (pageId: string, label: string) => ({ type: 'mention', attrs: { id: `page:${pageId}`, label, mentionSuggestionChar: '@' } });
const image = (attachmentId: string, alt: string) => ({ type: 'image', attrs: { src: `/api/v1/attachments/${attachmentId}/download`, alt } });

/**
 * Handbook (shared with its subtree) ── Chapter ── Trashed later
 *                                    └─ Secret (restricted)
 * Outside (a sibling, not shared)
 */
async function tree() {
  const s = await sharedSetup(t);
  const { workspace, editor, space, page: root } = s;
  const chapter = await createPage(t, editor, workspace.id, space.id, 'Chapter', root.id);
  const trashed = await createPage(t, editor, workspace.id, space.id, 'Old', chapter.id);
  const secret = await createPage(t, editor, workspace.id, space.id, 'Secret', root.id);
  const below = await createPage(t, editor, workspace.id, space.id, 'Below secret', secret.id);
  const outside = await createPage(t, editor, workspace.id, space.id, 'Outside');
  await restrict(t, workspace.id, secret.id, [below.id], [editor]);
  expect((await t.request({ method: 'DELETE', url: `/api/v1/pages/${trashed.id}`, token: editor.token })).status).toBe(200);
  return { ...s, root, chapter, trashed, secret, below, outside };
}

describe('public shares: reading without credentials', () => {
  it('answers the page and the shared tree in one call, noindex and never cached', async () => {
    const { editor, root, chapter } = await tree();
    const { url, share } = (await publish(t, editor, root.id, { includeSubtree: true })).body.data;
    const res = await visit(t, tokenOf(url));
    expect(res.status).toBe(200);
    expect(res.headers['x-robots-tag']).toBe('noindex');
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.body.data.share).toEqual({ pageId: root.id, includeSubtree: true, allowIndexing: false });
    expect(res.body.data.page).toMatchObject({ id: root.id, title: 'Welcome', icon: null, content: { type: 'doc' }, updatedAt: expect.any(String) });
    // The trashed page and the restricted subtree are not there; the root's parent is outside (null).
    expect(res.body.data.tree).toEqual([
      { id: root.id, parentId: null, title: 'Welcome', icon: null, position: expect.any(String) },
      { id: chapter.id, parentId: root.id, title: 'Chapter', icon: null, position: expect.any(String) },
    ]);
    // No session cookie is needed or set, and the visit is noted.
    expect(res.headers['set-cookie']).toBeUndefined();
    const row = await t.database.db.selectFrom('shares').select('lastViewedAt').where('id', '=', share.id).executeTakeFirstOrThrow();
    expect(row.lastViewedAt).toBeInstanceOf(Date);
  });

  it('serves pages inside the subtree; outside, trashed and restricted pages are 404', async () => {
    const { editor, root, chapter, trashed, secret, below, outside } = await tree();
    const token = tokenOf((await publish(t, editor, root.id, { includeSubtree: true })).body.data.url);
    const inside = await visit(t, `${token}/pages/${chapter.id}`);
    expect(inside.status).toBe(200);
    expect(inside.body.data.page).toMatchObject({ id: chapter.id, title: 'Chapter' });
    expect(inside.headers['x-robots-tag']).toBe('noindex');
    for (const id of [outside.id, trashed.id, secret.id, below.id, 'no-such-page']) {
      const res = await visit(t, `${token}/pages/${id}`);
      expect(res.status, id).toBe(404);
      expect(res.headers['x-robots-tag']).toBe('noindex');
      expect(res.headers['cache-control']).toBe('private, no-store');
    }
  });

  it('shares only the page itself without includeSubtree', async () => {
    const { editor, root, chapter } = await tree();
    const token = tokenOf((await publish(t, editor, root.id)).body.data.url);
    expect((await visit(t, token)).body.data.tree.map((p: { id: string }) => p.id)).toEqual([root.id]);
    expect((await visit(t, `${token}/pages/${chapter.id}`)).status).toBe(404);
  });

  it('lets search engines index only when the share allows it', async () => {
    const { editor, root, chapter } = await tree();
    const token = tokenOf((await publish(t, editor, root.id, { includeSubtree: true, allowIndexing: true })).body.data.url);
    const res = await visit(t, token);
    expect(res.status).toBe(200);
    expect(res.headers['x-robots-tag']).toBeUndefined();
    expect((await visit(t, `${token}/pages/${chapter.id}`)).headers['x-robots-tag']).toBeUndefined();
  });

  it('answers the same 404 for unknown, revoked and switched-off links', async () => {
    const { editor, root } = await tree();
    const { url, share } = (await publish(t, editor, root.id)).body.data;
    await t.request({ method: 'DELETE', url: `/api/v1/shares/${share.id}`, token: editor.token });
    const revoked = await visit(t, tokenOf(url));
    const unknown = await visit(t, 'x'.repeat(43));
    expect(revoked.status).toBe(404);
    expect(revoked.body).toEqual(unknown.body);
    expect(revoked.body.error.message).toBe('This link is no longer available');
    expect(revoked.headers['x-robots-tag']).toBe('noindex');
  });

  it('dies when the shared page goes to the trash, or comes under a restriction', async () => {
    const a = await tree();
    const token = tokenOf((await publish(t, a.editor, a.chapter.id)).body.data.url);
    expect((await visit(t, token)).status).toBe(200);
    await t.request({ method: 'DELETE', url: `/api/v1/pages/${a.chapter.id}`, token: a.editor.token });
    expect((await visit(t, token)).status).toBe(404);

    const b = await tree();
    const other = tokenOf((await publish(t, b.editor, b.chapter.id)).body.data.url);
    await restrict(t, b.workspace.id, b.root.id, [b.chapter.id], [b.editor]);
    expect((await visit(t, other)).status).toBe(404);
  });
});

describe('public shares: links and attachments', () => {
  it('rewrites links: inside the share to the public reader, outside to plain text; images to public URLs', async () => {
    const { workspace, space, editor, root, chapter, outside } = await tree();
    const picture = await upload(editor, workspace.id, root.id, 'diagram.png', PNG);
    const elsewhere = await upload(editor, workspace.id, outside.id, 'other.png', PNG);
    await writeContent(editor, root.id, {
      type: 'doc',
      content: [
        paragraph(text('See '), mention(chapter.id, 'Chapter'), text(' and '), mention(outside.id, 'Outside'), text('.')),
        paragraph(
          text('App link', `/w/${workspace.id}/s/${space.slug}/p/outside-${outside.id}`),
          text(' · '),
          text('Inside', `/api/v1/pages/${chapter.id}#part`),
        ),
        paragraph(text('Web', 'https://example.org/x'), text(' · '), text('Settings', '/w/acme/settings'), text(' · '), text('Top', '#top')),
        paragraph({ type: 'mention', attrs: { id: editor.id, label: 'Editor', mentionSuggestionChar: '@' } }),
        image(picture, 'Diagram'),
        image(elsewhere, 'Hidden'),
        paragraph(text('file', `/api/v1/attachments/${elsewhere}/download`)),
      ],
    });
    const token = tokenOf((await publish(t, editor, root.id, { includeSubtree: true })).body.data.url);
    const res = await visit(t, token);
    expect(res.status).toBe(200);
    const [p1, p2, p3, p4, img, hidden, p7] = res.body.data.page.content.content;
    expect(linksOf(p1)).toEqual([['See '], ['@Chapter', `/s/${token}/${chapter.id}`], [' and '], ['@Outside'], ['.']]);
    expect(linksOf(p2)).toEqual([['App link'], [' · '], ['Inside', `/s/${token}/${chapter.id}#part`]]);
    expect(p2.content[2].marks[0].attrs.target).toBeNull();
    expect(linksOf(p3)).toEqual([['Web', 'https://example.org/x'], [' · '], ['Settings'], [' · '], ['Top', '#top']]);
    expect(p4.content).toEqual([text('@Editor')]);
    expect(img).toMatchObject({ type: 'image', attrs: { src: `/api/v1/public/shares/${token}/attachments/${picture}`, alt: 'Diagram' } });
    expect(hidden).toEqual({ type: 'paragraph', content: [text('Hidden')] });
    expect(p7.content).toEqual([text('file')]);
    // Nothing in the answer names the page outside, the workspace or the person.
    const body = JSON.stringify(res.body);
    for (const secret of [outside.id, workspace.id, editor.id, elsewhere]) expect(body).not.toContain(secret);
  });

  it('rewrites images inside a line of text the same way: the share’s own to public URLs, others to their alt text', async () => {
    const { workspace, editor, root, outside } = await tree();
    const icon = await upload(editor, workspace.id, root.id, 'icon.png', PNG);
    const elsewhere = await upload(editor, workspace.id, outside.id, 'other.png', PNG);
    const inline = (id: string, alt: string | null) => ({ type: 'inlineImage', attrs: { src: `/api/v1/attachments/${id}/download`, alt } });
    await writeContent(editor, root.id, {
      type: 'doc',
      content: [paragraph(text('Press '), inline(icon, 'save'), text(' then '), inline(elsewhere, 'hidden'), text(' or '), inline(elsewhere, null), text('.'))],
    });
    const token = tokenOf((await publish(t, editor, root.id)).body.data.url);
    const res = await visit(t, token);
    expect(res.status).toBe(200);
    const [line] = res.body.data.page.content.content;
    expect(line.content).toEqual([
      text('Press '),
      { type: 'inlineImage', attrs: { src: `/api/v1/public/shares/${token}/attachments/${icon}`, alt: 'save', title: null, width: null, height: null } },
      text(' then '),
      text('hidden'),
      text(' or '),
      text('.'),
    ]);
    expect(JSON.stringify(res.body)).not.toContain(elsewhere);
  });

  it('downloads attachments of shared pages with safe headers; others are 404', async () => {
    const { workspace, editor, root, chapter, outside, secret } = await tree();
    const inRoot = await upload(editor, workspace.id, root.id, 'a.png', PNG);
    const inChild = await upload(editor, workspace.id, chapter.id, 'page.html', Buffer.from('<script>alert(1)</script>'), 'text/html');
    const inOutside = await upload(editor, workspace.id, outside.id, 'b.png', PNG);
    const inSecret = await upload(editor, workspace.id, secret.id, 'c.png', PNG);
    const token = tokenOf((await publish(t, editor, root.id, { includeSubtree: true })).body.data.url);

    const res = await t.app.inject({ method: 'GET', url: `/api/v1/public/shares/${token}/attachments/${inRoot}` });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(PNG)).toBe(true);
    expect(res.headers).toMatchObject({
      'content-type': 'image/png',
      'content-disposition': 'inline; filename=a.png',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
      'cache-control': 'private, no-store',
      'x-robots-tag': 'noindex',
    });
    const html = await t.app.inject({ method: 'GET', url: `/api/v1/public/shares/${token}/attachments/${inChild}` });
    expect(html.statusCode).toBe(200);
    expect(html.headers['content-disposition']).toBe('attachment; filename=page.html');
    expect(html.headers['content-type']).toBe('application/octet-stream');
    expect(html.headers['x-content-type-options']).toBe('nosniff');

    for (const id of [inOutside, inSecret, 'nope']) {
      const denied = await visit(t, `${token}/attachments/${id}`);
      expect(denied.status, id).toBe(404);
    }
    await publish(t, editor, root.id, { newLink: true });
    expect((await visit(t, `${token}/attachments/${inRoot}`)).status).toBe(404);
  });

  it('offers no way to search: there is no public search endpoint', async () => {
    const { editor, root } = await tree();
    const token = tokenOf((await publish(t, editor, root.id)).body.data.url);
    expect((await visit(t, `${token}/search?q=Welcome`)).status).toBe(404);
    expect((await t.request({ url: '/api/v1/search', query: { q: 'Welcome' } })).status).toBe(401);
  });
});
