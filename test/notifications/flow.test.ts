import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { type TestUser, workspaceWithRoles } from '../helpers/factories.js';
import { addSpaceMembers, createSpace, newPage } from '../pages/helpers.js';
import { dispatch, notificationsOf } from './helpers.js';

/**
 * The whole flow, driven only through the REST API: a change records its events, the dispatcher (run here as its job
 * would) fans them out, and the people concerned find their notifications.
 */

let t: TestApp;
let ws: string;
let admin: TestUser;
let editor: TestUser;
let viewer: TestUser;
let space: { id: string };

const mentionOf = (user: TestUser) => `[@${user.name}](mention:${user.id})`;
const about = async (user: TestUser, title: string) => (await notificationsOf(t, user)).filter((n) => n.subject.title === title);

beforeAll(async () => {
  t = await createTestApp();
  ({
    workspace: { id: ws },
    admin,
    editor,
    viewer,
  } = await workspaceWithRoles(t));
  space = await createSpace(t, admin, ws, { name: 'Team' });
});
afterAll(async () => {
  await t?.close();
});

describe('tasks', () => {
  it('assigning a task notifies the assignee once; assigning yourself notifies nobody', async () => {
    const created = await t.request({
      method: 'POST',
      url: '/api/v1/tasks',
      token: admin.token,
      body: { workspaceId: ws, title: 'Write the intro', assigneeId: viewer.id },
    });
    expect(created.status).toBe(201);
    const taskId = created.body.data.id;
    await dispatch(t);
    expect((await about(viewer, 'Write the intro')).map((n) => [n.kind, n.eventType, n.subject.id])).toEqual([['assigned', 'task.created', taskId]]);

    const reassigned = await t.request({ method: 'POST', url: `/api/v1/tasks/${taskId}/assign`, token: admin.token, body: { assigneeId: editor.id } });
    expect(reassigned.status).toBe(200);
    // Editing the task otherwise is not an assignment.
    expect((await t.request({ method: 'PUT', url: `/api/v1/tasks/${taskId}`, token: admin.token, body: { priority: 'high' } })).status).toBe(200);
    await dispatch(t);
    expect((await about(editor, 'Write the intro')).map((n) => [n.kind, n.eventType])).toEqual([['assigned', 'task.assigned']]);
    expect(await about(viewer, 'Write the intro')).toHaveLength(1);

    const own = await t.request({
      method: 'POST',
      url: '/api/v1/tasks',
      token: editor.token,
      body: { workspaceId: ws, title: 'My own', assigneeId: editor.id },
    });
    expect(own.status).toBe(201);
    await dispatch(t);
    expect(await about(editor, 'My own')).toEqual([]);
  });

  it('a task in a private space notifies nobody who cannot read that space', async () => {
    const hidden = await createSpace(t, admin, ws, { name: 'Hidden', visibility: 'private' });
    await addSpaceMembers(t, admin, ws, hidden.id, { userIds: [editor.id], role: 'editor' });
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/tasks',
      token: admin.token,
      body: { workspaceId: ws, spaceId: hidden.id, title: 'Quiet task', assigneeId: viewer.id },
    });
    expect(res.status).toBe(201);
    await dispatch(t);
    expect(await about(viewer, 'Quiet task')).toEqual([]);
  });
});

describe('pages and comments', () => {
  it('a mention notifies once, however many saves keep it', async () => {
    const page = await newPage(t, admin, ws, space.id, { title: 'Plan', markdown: 'Draft' });
    await dispatch(t);
    for (let i = 0; i < 4; i++) {
      const res = await t.request({
        method: 'PUT',
        url: `/api/v1/pages/${page.id}`,
        token: admin.token,
        body: { markdown: `Draft ${i} for ${mentionOf(editor)}` },
      });
      expect(res.status).toBe(200);
      await dispatch(t);
    }
    const got = await about(editor, 'Plan');
    expect(got.map((n) => n.kind)).toEqual(['mention']);
    expect(got[0]).toMatchObject({ actor: { id: admin.id }, subject: { type: 'page', id: page.id }, pageId: page.id, spaceId: space.id });
    // Mentioning yourself is not news.
    await t.request({ method: 'PUT', url: `/api/v1/pages/${page.id}`, token: admin.token, body: { markdown: `Me: ${mentionOf(admin)}` } });
    await dispatch(t);
    expect(await about(admin, 'Plan')).toEqual([]);
  });

  it('a reply notifies the others in the thread; a mention in a comment notifies who it names', async () => {
    const page = await newPage(t, admin, ws, space.id, { title: 'Discussed' });
    await dispatch(t);
    const first = await t.request({
      method: 'POST',
      url: '/api/v1/comments',
      token: editor.token,
      body: { workspaceId: ws, pageId: page.id, text: 'What about this?' },
    });
    expect(first.status).toBe(201);
    const reply = await t.request({
      method: 'POST',
      url: '/api/v1/comments',
      token: admin.token,
      body: { workspaceId: ws, pageId: page.id, parentId: first.body.data.id, text: `Agreed, ${mentionOf(viewer)} can you look?` },
    });
    expect(reply.status).toBe(201);
    await dispatch(t);
    expect((await about(editor, 'Discussed')).map((n) => [n.kind, n.eventType])).toEqual([['reply', 'comment.created']]);
    expect((await about(viewer, 'Discussed')).map((n) => n.kind)).toEqual(['mention']);
    expect(await about(admin, 'Discussed')).toEqual([]);
  });

  it('editing a comment to add a mention notifies who it adds, once; the edit is no news to watchers', async () => {
    const page = await newPage(t, admin, ws, space.id, { title: 'Edited comment' });
    await t.request({ method: 'PUT', url: `/api/v1/pages/${page.id}/watch`, token: viewer.token });
    const comment = await t.request({
      method: 'POST',
      url: '/api/v1/comments',
      token: admin.token,
      body: { workspaceId: ws, pageId: page.id, text: 'Who owns this?' },
    });
    expect(comment.status).toBe(201);
    await dispatch(t);
    const viewerBefore = (await about(viewer, 'Edited comment')).length;
    for (const text of [`Who owns this? ${mentionOf(editor)}`, `Who owns this, ${mentionOf(editor)}?`]) {
      const edit = await t.request({ method: 'PUT', url: `/api/v1/comments/${comment.body.data.id}`, token: admin.token, body: { workspaceId: ws, text } });
      expect(edit.status, JSON.stringify(edit.body)).toBe(200);
      await dispatch(t);
    }
    expect((await about(editor, 'Edited comment')).map((n) => [n.kind, n.eventType])).toEqual([['mention', 'comment.updated']]);
    expect(await about(viewer, 'Edited comment')).toHaveLength(viewerBefore);
  });

  it('watching a page over REST brings its changes, not one’s own', async () => {
    const page = await newPage(t, admin, ws, space.id, { title: 'Watched over REST' });
    await dispatch(t);
    expect((await t.request({ method: 'PUT', url: `/api/v1/pages/${page.id}/watch`, token: viewer.token })).status).toBe(200);
    expect((await t.request({ method: 'PUT', url: `/api/v1/pages/${page.id}/watch`, token: admin.token })).status).toBe(200);
    for (let i = 0; i < 3; i++) {
      expect((await t.request({ method: 'PUT', url: `/api/v1/pages/${page.id}`, token: admin.token, body: { markdown: `Version ${i}` } })).status).toBe(200);
      await dispatch(t);
    }
    expect((await about(viewer, 'Watched over REST')).map((n) => [n.kind, n.eventType])).toEqual([['watch', 'page.updated']]);
    expect(await about(admin, 'Watched over REST')).toEqual([]);
  });
});
