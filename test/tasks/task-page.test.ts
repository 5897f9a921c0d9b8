import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { createWorkspace, workspaceWithRoles } from '../helpers/factories.js';
import { newPage } from '../pages/helpers.js';
import { restrict } from '../restrictions/helpers.js';
import { createSpace, createTask } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** A task links to the page it is about (issue 12): checked on write, shown on read only to those who may open the page. */
describe('a task’s page', () => {
  it('links a task to a page: the detail names the page, lists carry its id and filter by it; null unlinks', async () => {
    const { workspace, admin, editor, viewer } = await workspaceWithRoles(t);
    const space = await createSpace(t, admin, workspace.id);
    const page = await newPage(t, editor, workspace.id, space.id, { title: 'Release plan' });
    const linked = await createTask(t, editor, workspace.id, { title: 'Ship it', pageId: page.id });
    await createTask(t, editor, workspace.id, { title: 'Unrelated' });
    expect(linked.pageId).toBe(page.id);
    expect(linked.page).toEqual({ id: page.id, title: 'Release plan', spaceId: space.id });

    const read = await t.request({ url: `/api/v1/tasks/${linked.id}`, token: viewer.token });
    expect(read.body.data.page).toEqual({ id: page.id, title: 'Release plan', spaceId: space.id });

    const ofPage = await t.request({ url: '/api/v1/tasks', token: viewer.token, query: { workspaceId: workspace.id, pageId: page.id } });
    expect(ofPage.status).toBe(200);
    expect(ofPage.body.data.map((x: { title: string }) => x.title)).toEqual(['Ship it']);
    expect(ofPage.body.data[0].pageId).toBe(page.id);

    const unlinked = await t.request({ method: 'PUT', url: `/api/v1/tasks/${linked.id}`, token: editor.token, body: { pageId: null } });
    expect(unlinked.status).toBe(200);
    expect(unlinked.body.data).toMatchObject({ pageId: null, page: null });
    const relinked = await t.request({ method: 'PUT', url: `/api/v1/tasks/${linked.id}`, token: editor.token, body: { pageId: page.id } });
    expect(relinked.body.data.page?.id).toBe(page.id);
    const events = await t.database.db.selectFrom('domainEvents').select(['type', 'data']).where('subjectId', '=', linked.id).where('type', '=', 'task.updated').orderBy('id').execute();
    expect(events.map((e) => (e.data as { changed: string[] }).changed)).toEqual([['pageId'], ['pageId']]);
  });

  it('refuses a page of another workspace, one the caller cannot see, or one in the trash (422, nothing written)', async () => {
    const { workspace, admin, editor } = await workspaceWithRoles(t);
    const other = await createWorkspace(t, admin, 'Elsewhere');
    const otherSpace = await createSpace(t, admin, other.id);
    const foreign = await newPage(t, admin, other.id, otherSpace.id, { title: 'Foreign' });
    const hidden = await createSpace(t, admin, workspace.id, 'private');
    const secret = await newPage(t, admin, workspace.id, hidden.id, { title: 'Secret' });
    const space = await createSpace(t, admin, workspace.id);
    const trashed = await newPage(t, editor, workspace.id, space.id, { title: 'Old' });
    expect((await t.request({ method: 'DELETE', url: `/api/v1/pages/${trashed.id}`, token: editor.token, query: { workspaceId: workspace.id } })).status).toBe(200);

    for (const [pageId, code] of [
      [foreign.id, 'not_found'],
      [secret.id, 'not_found'],
      [trashed.id, 'trashed'],
      ['00000000-0000-7000-8000-000000000000', 'not_found'],
    ]) {
      const res = await t.request({ method: 'POST', url: '/api/v1/tasks', token: editor.token, body: { workspaceId: workspace.id, title: 'Linked', pageId } });
      expect(res.status, pageId).toBe(422);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(JSON.stringify(res.body.error.details)).toContain(code);
    }
    const task = await createTask(t, editor, workspace.id, { title: 'Plain' });
    const put = await t.request({ method: 'PUT', url: `/api/v1/tasks/${task.id}`, token: editor.token, body: { pageId: secret.id } });
    expect(put.status).toBe(422);
    const list = await t.request({ url: '/api/v1/tasks', token: editor.token, query: { workspaceId: workspace.id } });
    expect(list.body.data.map((x: { title: string; pageId: string | null }) => [x.title, x.pageId])).toEqual([['Plain', null]]);
  });

  it('shows the page only to readers who may open it, and not while it is in the trash; purging it clears the link', async () => {
    const { workspace, admin, editor, viewer } = await workspaceWithRoles(t);
    const space = await createSpace(t, admin, workspace.id);
    const page = await newPage(t, editor, workspace.id, space.id, { title: 'Budget' });
    const task = await createTask(t, editor, workspace.id, { title: 'Review the budget', pageId: page.id });

    await restrict(t, editor, page.id, [{ userId: editor.id, role: 'editor' }]);
    const asViewer = await t.request({ url: `/api/v1/tasks/${task.id}`, token: viewer.token });
    expect(asViewer.status).toBe(200);
    expect(asViewer.body.data).toMatchObject({ pageId: page.id, page: null });
    const asEditor = await t.request({ url: `/api/v1/tasks/${task.id}`, token: editor.token });
    expect(asEditor.body.data.page).toEqual({ id: page.id, title: 'Budget', spaceId: space.id });

    await t.request({ method: 'DELETE', url: `/api/v1/pages/${page.id}`, token: editor.token, query: { workspaceId: workspace.id } });
    expect((await t.request({ url: `/api/v1/tasks/${task.id}`, token: editor.token })).body.data).toMatchObject({ pageId: page.id, page: null });
    const recovered = await t.request({ method: 'POST', url: `/api/v1/pages/${page.id}/recover`, token: editor.token, body: { workspaceId: workspace.id } });
    expect(recovered.status).toBe(200);
    expect((await t.request({ url: `/api/v1/tasks/${task.id}`, token: editor.token })).body.data.page?.title).toBe('Budget');

    // Purged (as the trash job does): the task stays, unlinked.
    await t.database.db.deleteFrom('pages').where('id', '=', page.id).execute();
    expect((await t.request({ url: `/api/v1/tasks/${task.id}`, token: editor.token })).body.data).toMatchObject({ title: 'Review the budget', pageId: null, page: null });
  });
});
