import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { type TestUser, workspaceWithRoles } from '../helpers/factories.js';
import { doc, newPage } from '../pages/helpers.js';
import { restrict } from '../restrictions/helpers.js';
import { addSpaceMembers, createSpace } from '../spaces/helpers.js';

/** Page templates over HTTP (issue 30): CRUD, who may, placeholders, pages made from them. */

let t: TestApp;
let ws: Awaited<ReturnType<typeof workspaceWithRoles>>;
let workspaceId: string;
let spaceId: string;
beforeAll(async () => {
  t = await createTestApp();
  ws = await workspaceWithRoles(t);
  workspaceId = ws.workspace.id;
  spaceId = (await createSpace(t, ws.admin, workspaceId, { name: 'Handbook' })).id;
});
afterAll(() => t.close());

const post = (u: TestUser, body: Record<string, unknown>) =>
  t.request({ method: 'POST', url: '/api/v1/templates', token: u.token, body: { workspaceId, ...body } });
const fromTemplate = (u: TestUser, id: string, body: Record<string, unknown>) =>
  t.request({ method: 'POST', url: `/api/v1/templates/${id}/pages`, token: u.token, body });

async function template(u: TestUser, body: Record<string, unknown>) {
  const res = await post(u, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { id: string; title: string; spaceId: string | null };
}

describe('templates: create, read, list, update, delete', () => {
  it('a space editor makes a space template from Markdown; readers get it as JSON or Markdown; it updates and deletes', async () => {
    const created = await post(ws.editor, { spaceId, title: ' Meeting notes ', icon: '📝', description: 'Weekly sync', markdown: '## Agenda\n\n- item' });
    expect(created.status).toBe(201);
    const tpl = created.body.data;
    expect(tpl).toEqual({
      id: expect.any(String),
      workspaceId,
      spaceId,
      title: 'Meeting notes',
      icon: '📝',
      description: 'Weekly sync',
      createdBy: ws.editor.id,
      updatedBy: ws.editor.id,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(tpl.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/); // a time-ordered UUIDv7 from the service

    const got = await t.request({ url: `/api/v1/templates/${tpl.id}`, token: ws.viewer.token });
    expect(got.status).toBe(200);
    expect(got.body.data.content).toEqual({
      type: 'doc',
      content: [
        { type: 'heading', attrs: { level: 2 }, content: [{ type: 'text', text: 'Agenda' }] },
        { type: 'bulletList', content: [{ type: 'listItem', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'item' }] }] }] },
      ],
    });
    const md = await t.request({ url: `/api/v1/templates/${tpl.id}`, token: ws.viewer.token, query: { format: 'markdown' } });
    expect(md.body.data.markdown).toBe('## Agenda\n\n- item\n');

    const patched = await t.request({ method: 'PATCH', url: `/api/v1/templates/${tpl.id}`, token: ws.editor.token, body: { title: 'Standup', icon: null } });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({ title: 'Standup', icon: null, description: 'Weekly sync' });
    const contentPatched = await t.request({ method: 'PATCH', url: `/api/v1/templates/${tpl.id}`, token: ws.editor.token, body: { content: doc('New body') } });
    expect(contentPatched.status).toBe(200);
    expect((await t.request({ url: `/api/v1/templates/${tpl.id}`, token: ws.editor.token })).body.data.content).toEqual(doc('New body'));

    const del = await t.request({ method: 'DELETE', url: `/api/v1/templates/${tpl.id}`, token: ws.editor.token });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ data: { id: tpl.id, deleted: true } });
    const gone = await t.request({ url: `/api/v1/templates/${tpl.id}`, token: ws.editor.token });
    expect(gone.status).toBe(404);
    expect(gone.body.error).toMatchObject({ code: 'NOT_FOUND', message: expect.any(String), details: expect.any(Object) });
  });

  it('lists by title: every readable template, or with spaceId the space’s own and the workspace-wide ones', async () => {
    const w = await workspaceWithRoles(t);
    const ws2 = w.workspace.id;
    const a = (await createSpace(t, w.admin, ws2, { name: 'A' })).id;
    const b = (await createSpace(t, w.admin, ws2, { name: 'B' })).id;
    const secret = (await createSpace(t, w.admin, ws2, { name: 'Board', visibility: 'private' })).id;
    const mk = async (spaceId: string | null, title: string) => {
      const res = await t.request({
        method: 'POST',
        url: '/api/v1/templates',
        token: w.admin.token,
        body: { workspaceId: ws2, spaceId, title, markdown: 'x' },
      });
      expect(res.status).toBe(201);
    };
    await mk(null, 'zeta wide');
    await mk(a, 'Alpha');
    await mk(b, 'beta');
    await mk(secret, 'Board minutes');
    const list = async (u: TestUser, query: Record<string, string>) => {
      const res = await t.request({ url: '/api/v1/templates', token: u.token, query: { workspaceId: ws2, ...query } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body;
    };
    const all = await list(w.viewer, {});
    expect(all.data.map((x: { title: string }) => x.title)).toEqual(['Alpha', 'beta', 'zeta wide']);
    expect(all.meta).toEqual({ page: 1, limit: 50, total: 3 });
    expect((await list(w.admin, {})).data.map((x: { title: string }) => x.title)).toEqual(['Alpha', 'beta', 'Board minutes', 'zeta wide']);
    expect((await list(w.viewer, { spaceId: a })).data.map((x: { title: string }) => x.title)).toEqual(['Alpha', 'zeta wide']);
    expect((await list(w.viewer, { limit: '1', page: '2' })).data.map((x: { title: string }) => x.title)).toEqual(['beta']);
    expect(all.data[0]).not.toHaveProperty('content');

    // A private space the viewer is not in does not exist for them; an outsider is refused the workspace.
    expect((await t.request({ url: '/api/v1/templates', token: w.viewer.token, query: { workspaceId: ws2, spaceId: secret } })).status).toBe(404);
    expect((await t.request({ url: '/api/v1/templates', token: w.outsider.token, query: { workspaceId: ws2 } })).status).toBe(403);
  });

  it('makes a template from a page the caller can read: its content, title and icon', async () => {
    const page = await newPage(t, ws.editor, workspaceId, spaceId, {
      title: 'Incident review',
      icon: '🚒',
      markdown: '## Timeline\n\nWhat happened on {{date}}',
    });
    const tpl = await template(ws.editor, { spaceId, fromPageId: page.id });
    expect(tpl).toMatchObject({ title: 'Incident review', icon: '🚒', spaceId });
    const got = await t.request({ url: `/api/v1/templates/${tpl.id}`, token: ws.editor.token, query: { format: 'markdown' } });
    expect(got.body.data.markdown).toBe('## Timeline\n\nWhat happened on {{date}}\n');
    const named = await template(ws.editor, { spaceId, fromPageId: page.id, title: 'Postmortem', icon: null });
    expect(named).toMatchObject({ title: 'Postmortem', icon: null });
  });
});

describe('templates: who may', () => {
  it('a viewer cannot make or change a space template; an editor cannot make a workspace-wide one; an admin can', async () => {
    const denied = await post(ws.viewer, { spaceId, title: 'Nope', markdown: 'x' });
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('FORBIDDEN');

    const wideByEditor = await post(ws.editor, { title: 'Wide', markdown: 'x' });
    expect(wideByEditor.status).toBe(403);
    expect(wideByEditor.body.error.details).toMatchObject({ required: 'admin' });
    const wide = await template(ws.admin, { title: 'Wide', markdown: 'x' });
    expect(wide.spaceId).toBeNull();
    // Every member reads it and starts pages from it; only an admin changes it.
    expect((await t.request({ url: `/api/v1/templates/${wide.id}`, token: ws.viewer.token })).status).toBe(200);
    expect((await t.request({ method: 'PATCH', url: `/api/v1/templates/${wide.id}`, token: ws.editor.token, body: { title: 'Mine' } })).status).toBe(403);
    expect((await t.request({ method: 'DELETE', url: `/api/v1/templates/${wide.id}`, token: ws.editor.token })).status).toBe(403);
    expect((await t.request({ method: 'PATCH', url: `/api/v1/templates/${wide.id}`, token: ws.admin.token, body: { title: 'Ours' } })).status).toBe(200);

    const spaceTpl = await template(ws.editor, { spaceId, title: 'Space one', markdown: 'x' });
    const viewerPatch = await t.request({ method: 'PATCH', url: `/api/v1/templates/${spaceTpl.id}`, token: ws.viewer.token, body: { title: 'Mine' } });
    expect(viewerPatch.status).toBe(403);
    expect((await t.request({ method: 'DELETE', url: `/api/v1/templates/${spaceTpl.id}`, token: ws.viewer.token })).status).toBe(403);
  });

  it('a non-member gets 404 for a template by id, whatever the verb; a private space’s templates are hidden the same way', async () => {
    const tpl = await template(ws.editor, { spaceId, title: 'Public space', markdown: 'x' });
    for (const req of [
      { url: `/api/v1/templates/${tpl.id}` },
      { method: 'PATCH' as const, url: `/api/v1/templates/${tpl.id}`, body: { title: 'x' } },
      { method: 'DELETE' as const, url: `/api/v1/templates/${tpl.id}` },
      { method: 'POST' as const, url: `/api/v1/templates/${tpl.id}/pages`, body: { spaceId } },
    ]) {
      const res = await t.request({ ...req, token: ws.outsider.token });
      expect(res.status, req.url).toBe(404);
      expect(res.body.error).toMatchObject({ code: 'NOT_FOUND', details: { resource: 'Template', id: tpl.id } });
    }
    const privateSpace = (await createSpace(t, ws.admin, workspaceId, { name: 'Board', visibility: 'private' })).id;
    const hidden = await template(ws.admin, { spaceId: privateSpace, title: 'Board pack', markdown: 'x' });
    expect((await t.request({ url: `/api/v1/templates/${hidden.id}`, token: ws.editor.token })).status).toBe(404);
    // Naming the private space in a create is a bad input, never a hint that it exists.
    const intoHidden = await post(ws.editor, { spaceId: privateSpace, title: 'x', markdown: 'x' });
    expect(intoHidden.status).toBe(422);
    expect(intoHidden.body.error.details).toMatchObject({ field: 'spaceId' });
    await addSpaceMembers(t, ws.admin, workspaceId, privateSpace, { userIds: [ws.editor.id], role: 'viewer' });
    expect((await t.request({ url: `/api/v1/templates/${hidden.id}`, token: ws.editor.token })).status).toBe(200);
  });

  it('refuses a template made from a restricted page the caller cannot read, as if it did not exist', async () => {
    const page = await newPage(t, ws.editor, workspaceId, spaceId, { title: 'Salaries', markdown: 'secret' });
    await restrict(t, ws.editor, page.id, [{ userId: ws.editor.id, role: 'editor' }]);
    const res = await post(ws.admin, { spaceId, fromPageId: page.id });
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ code: 'NOT_FOUND', details: { resource: 'Page', id: page.id, field: 'fromPageId' } });
    expect(JSON.stringify(res.body)).not.toContain('Salaries');
    // The one granted may.
    expect((await post(ws.editor, { spaceId, fromPageId: page.id })).status).toBe(201);
  });

  it('answers bad input with 422 (and a missing field with 400 MISSING_REQUIRED, as pages do)', async () => {
    for (const [body, field] of [
      [{ spaceId, markdown: 'x' }, 'title'],
      [{ spaceId, title: 'x' }, 'content'],
    ] as const) {
      const res = await post(ws.editor, body);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'MISSING_REQUIRED', details: { field } });
    }
    for (const [body, field] of [
      [{ spaceId, title: '', markdown: 'x' }, 'title'],
      [{ spaceId, title: 'x', content: { type: 'doc', content: [{ type: 'nonsense' }] } }, 'content'],
      [{ spaceId, title: 'x', markdown: 'x', content: doc('y') }, 'markdown'],
      [{ spaceId, title: 'x', markdown: 'x', fromPageId: 'p' }, 'fromPageId'],
      [{ spaceId, title: 'x'.repeat(501), markdown: 'x' }, 'title'],
    ] as const) {
      const res = await post(ws.editor, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(422);
      expect(res.body.error.details.field ?? res.body.error.details.fields?.[0]?.field, JSON.stringify(res.body)).toContain(field);
    }
    const tpl = await template(ws.editor, { spaceId, title: 'T', markdown: 'x' });
    const badDate = await fromTemplate(ws.editor, tpl.id, { spaceId, date: '2026-02-30' });
    expect(badDate.status).toBe(422);
    const noSpace = await fromTemplate(ws.editor, tpl.id, {});
    expect(noSpace.status).toBe(400);
    expect(noSpace.body.error).toMatchObject({ code: 'MISSING_REQUIRED', details: { field: 'spaceId' } });
  });
});

describe('pages from templates', () => {
  const body = [
    '# {{title}}',
    '',
    'Date: {{date}} · Author: {{ author }} · Unknown: {{other}}',
    '',
    'Inline `{{date}}` stays.',
    '',
    '```',
    'echo {{title}}',
    '```',
  ].join('\n');

  it('creates a page through the pages service with {{date}}, {{author}} and {{title}} filled, code left as written', async () => {
    const tpl = await template(ws.editor, { spaceId, title: 'Retro', icon: '🔁', markdown: body });
    const res = await fromTemplate(ws.editor, tpl.id, { spaceId, title: 'Retro week 49', date: '2026-12-04' });
    expect(res.status).toBe(201);
    const page = res.body.data;
    expect(page).toMatchObject({ title: 'Retro week 49', icon: '🔁', spaceId, parentId: null, createdBy: ws.editor.id });
    const read = await t.request({ url: `/api/v1/pages/${page.id}`, token: ws.viewer.token, query: { format: 'markdown' } });
    expect(read.body.data.markdown).toBe(
      [
        '# Retro week 49',
        '',
        'Date: 2026-12-04 · Author: Editor · Unknown: {{other}}',
        '',
        'Inline `{{date}}` stays.',
        '',
        '```',
        'echo {{title}}',
        '```',
        '',
      ].join('\n'),
    );
    // The same create as any page: a history entry, an event, search.
    const history = await t.request({ url: `/api/v1/pages/${page.id}/history`, token: ws.editor.token });
    expect(history.body.data.map((h: { summary: string }) => h.summary)).toEqual(['Created page']);
    const events = await t.database.db.selectFrom('domainEvents').select(['type']).where('pageId', '=', page.id).execute();
    expect(events.map((e) => e.type)).toEqual(['page.created']);
    const found = await t.request({ url: '/api/v1/search', token: ws.editor.token, query: { workspaceId, query: 'Author Editor', spaceId } });
    expect(found.status, JSON.stringify(found.body)).toBe(200);
    expect(JSON.stringify(found.body)).toContain(page.id);
  });

  it('reads a template filled for inserting into a page (fill=true): the caller’s name, the given title and date, code as written', async () => {
    const tpl = await template(ws.editor, { spaceId, title: 'Retro', markdown: body });
    const url = `/api/v1/templates/${tpl.id}`;
    const filled = await t.request({ url, token: ws.viewer.token, query: { fill: 'true', title: 'Week 50', date: '2026-12-07', format: 'markdown' } });
    expect(filled.status, JSON.stringify(filled.body)).toBe(200);
    expect(filled.body.data.markdown).toBe(
      ['# Week 50', '', 'Date: 2026-12-07 · Author: Viewer · Unknown: {{other}}', '', 'Inline `{{date}}` stays.', '', '```', 'echo {{title}}', '```', ''].join(
        '\n',
      ),
    );
    expect(JSON.stringify(filled.body.data.content)).toContain('Author: Viewer');
    // Without fill, as stored; a wrong date or flag is refused.
    const stored = await t.request({ url, token: ws.viewer.token, query: { format: 'markdown' } });
    expect(stored.body.data.markdown).toBe(`${body}\n`);
    const noTitle = await t.request({ url, token: ws.viewer.token, query: { fill: 'true', format: 'markdown' } });
    expect(noTitle.body.data.markdown.split('\n')[0]).toBe('# ');
    for (const query of <Record<string, string>[]>[{ fill: 'true', date: '2026-02-30' }, { fill: 'maybe' }]) {
      const bad = await t.request({ url, token: ws.viewer.token, query });
      expect(bad.status, JSON.stringify(query)).toBe(400);
      expect(bad.body.error.code).toBe('INVALID_PARAMETER');
    }
  });

  it('defaults the title to the template’s with its placeholders filled, and the date to today in UTC', async () => {
    const tpl = await template(ws.editor, { spaceId, title: 'Standup {{date}}', markdown: 'Notes for {{title}}' });
    const res = await fromTemplate(ws.editor, tpl.id, { spaceId });
    expect(res.status).toBe(201);
    const today = new Date().toISOString().slice(0, 10);
    expect(res.body.data.title).toBe(`Standup ${today}`);
    const read = await t.request({ url: `/api/v1/pages/${res.body.data.id}`, token: ws.editor.token, query: { format: 'markdown' } });
    expect(read.body.data.markdown).toBe(`Notes for Standup ${today}\n`);
  });

  it('goes under a parent with the parent’s restriction; needs edit rights in the target space', async () => {
    const tpl = await template(ws.admin, { title: 'Wide', markdown: 'Hello {{author}}' });
    const parent = await newPage(t, ws.editor, workspaceId, spaceId, { title: 'Parent' });
    await restrict(t, ws.editor, parent.id, [{ userId: ws.editor.id, role: 'editor' }]);
    const child = await fromTemplate(ws.editor, tpl.id, { spaceId, parentId: parent.id, title: 'Child' });
    expect(child.status).toBe(201);
    expect(child.body.data.parentId).toBe(parent.id);
    // The restriction above reaches the new page: the viewer cannot open it.
    expect((await t.request({ url: `/api/v1/pages/${child.body.data.id}`, token: ws.viewer.token })).status).toBe(404);
    // A viewer may read the template but not make pages; nor may anyone under a parent closed to them.
    expect((await fromTemplate(ws.viewer, tpl.id, { spaceId, title: 'x' })).status).toBe(403);
    const closed = await fromTemplate(ws.admin, tpl.id, { spaceId, parentId: parent.id, title: 'x' });
    expect(closed.status).toBe(404);
    expect(closed.body.error.details).toMatchObject({ field: 'parentId' });
  });
});
