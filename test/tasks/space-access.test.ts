import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { addMember, createUser, workspaceWithRoles } from '../helpers/factories.js';
import { addSpaceMember, createProject, createSpace, createTask } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('tasks in private spaces', () => {
  it('are invisible to workspace members outside the space: lists, counts, labels, triage, reads and writes', async () => {
    const { workspace, admin, editor } = await workspaceWithRoles(t);
    const insider = await createUser(t, 'Insider');
    await addMember(t, workspace.id, admin, insider, 'editor');
    const secret = await createSpace(t, admin, workspace.id, 'private');
    await addSpaceMember(t, admin, workspace.id, secret.id, insider, 'editor');

    await createTask(t, editor, workspace.id, { title: 'Open', bucket: 'now', labels: ['shared'] });
    const hidden = await createTask(t, insider, workspace.id, { title: 'Hidden', spaceId: secret.id, bucket: 'now', labels: ['shared', 'secret-label'] });
    const secretProject = await createProject(t, insider, workspace.id, { name: 'Secret project', spaceId: secret.id });

    // The outsider of the space (a workspace editor) sees only the open task.
    const list = await t.request({ url: '/api/v1/tasks', token: editor.token, query: { workspaceId: workspace.id } });
    expect(list.body.data.map((x: any) => x.title)).toEqual(['Open']);
    expect(list.body.meta.total).toBe(1);
    const bySpace = await t.request({ url: '/api/v1/tasks', token: editor.token, query: { workspaceId: workspace.id, spaceId: secret.id } });
    expect(bySpace.body).toEqual({ data: [], meta: { page: 1, limit: 50, total: 0 } });
    const byLabel = await t.request({ url: '/api/v1/tasks', token: editor.token, query: { workspaceId: workspace.id, label: 'secret-label' } });
    expect(byLabel.body.meta.total).toBe(0);
    const labels = await t.request({ url: '/api/v1/labels', token: editor.token, query: { workspaceId: workspace.id } });
    expect(labels.body.data).toEqual([{ name: 'shared', count: 1 }]);
    const triage = await t.request({ url: '/api/v1/tasks/triage-summary', token: editor.token, query: { workspaceId: workspace.id } });
    expect(triage.body.data).toEqual({ now: 1, next: 0, later: 0, none: 0 });
    const projects = await t.request({ url: '/api/v1/projects', token: editor.token, query: { workspaceId: workspace.id } });
    expect(projects.body.data).toEqual([]);

    for (const req of [
      { method: 'GET' as const, url: `/api/v1/tasks/${hidden.id}` },
      { method: 'PUT' as const, url: `/api/v1/tasks/${hidden.id}`, body: { title: 'Mine now' } },
      { method: 'POST' as const, url: `/api/v1/tasks/${hidden.id}/complete` },
      { method: 'DELETE' as const, url: `/api/v1/tasks/${hidden.id}` },
      { method: 'GET' as const, url: `/api/v1/projects/${secretProject.id}` },
    ]) {
      const res = await t.request({ ...req, token: editor.token });
      expect(res.status, `${req.method} ${req.url}`).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
    // Naming the private space or its project in a body: as if it did not exist.
    const intoSecret = await t.request({
      method: 'POST',
      url: '/api/v1/tasks',
      token: editor.token,
      body: { workspaceId: workspace.id, title: 'x', spaceId: secret.id },
    });
    expect(intoSecret.status).toBe(422);
    expect(intoSecret.body.error.details.field).toBe('spaceId');
    const intoProject = await t.request({
      method: 'POST',
      url: '/api/v1/tasks',
      token: editor.token,
      body: { workspaceId: workspace.id, title: 'x', projectId: secretProject.id },
    });
    expect(intoProject.status).toBe(422);
    expect(intoProject.body.error.details.field).toBe('projectId');

    // The space member and a workspace admin see everything.
    for (const user of [insider, admin]) {
      const all = await t.request({ url: '/api/v1/tasks', token: user.token, query: { workspaceId: workspace.id } });
      expect(all.body.data.map((x: any) => x.title).sort()).toEqual(['Hidden', 'Open']);
      const tri = await t.request({ url: '/api/v1/tasks/triage-summary', token: user.token, query: { workspaceId: workspace.id } });
      expect(tri.body.data.now).toBe(2);
      const lab = await t.request({ url: '/api/v1/labels', token: user.token, query: { workspaceId: workspace.id } });
      expect(lab.body.data).toEqual([
        { name: 'shared', count: 2 },
        { name: 'secret-label', count: 1 },
      ]);
    }
    const read = await t.request({ url: `/api/v1/tasks/${hidden.id}`, token: insider.token });
    expect(read.status).toBe(200);
    expect(read.body.data.title).toBe('Hidden');
    const untouched = await t.request({ url: `/api/v1/tasks/${hidden.id}`, token: admin.token });
    expect(untouched.body.data).toMatchObject({ title: 'Hidden', status: 'todo' });
  });

  it('a task in no space that names a private project does not reveal the project to outsiders of the space', async () => {
    const { workspace, admin, editor } = await workspaceWithRoles(t);
    const secret = await createSpace(t, admin, workspace.id, 'private');
    const project = await createProject(t, admin, workspace.id, { name: 'Codename', spaceId: secret.id });
    const task = await createTask(t, admin, workspace.id, { projectId: project.id });
    expect(task.project).toEqual({ id: project.id, name: 'Codename' });
    const seen = await t.request({ url: `/api/v1/tasks/${task.id}`, token: editor.token });
    expect(seen.status).toBe(200);
    expect(seen.body.data.project).toBeNull();
  });
});

describe('space roles override workspace roles for tasks', () => {
  it('a workspace viewer who edits a space writes tasks there; a space viewer cannot', async () => {
    const { workspace, admin, editor, viewer } = await workspaceWithRoles(t);
    const space = await createSpace(t, admin, workspace.id, 'public');
    await addSpaceMember(t, admin, workspace.id, space.id, viewer, 'editor');
    await addSpaceMember(t, admin, workspace.id, space.id, editor, 'viewer');

    const byViewer = await t.request({
      method: 'POST',
      url: '/api/v1/tasks',
      token: viewer.token,
      body: { workspaceId: workspace.id, title: 'Space task', spaceId: space.id },
    });
    expect(byViewer.status).toBe(201);
    const outside = await t.request({ method: 'POST', url: '/api/v1/tasks', token: viewer.token, body: { workspaceId: workspace.id, title: 'No space' } });
    expect(outside.status).toBe(403);

    const byEditor = await t.request({ method: 'PUT', url: `/api/v1/tasks/${byViewer.body.data.id}`, token: editor.token, body: { title: 'Nope' } });
    expect(byEditor.status).toBe(403);
    const intoSpace = await t.request({
      method: 'POST',
      url: '/api/v1/tasks',
      token: editor.token,
      body: { workspaceId: workspace.id, title: 'x', spaceId: space.id },
    });
    expect(intoSpace.status).toBe(403);
    const read = await t.request({ url: `/api/v1/tasks/${byViewer.body.data.id}`, token: editor.token });
    expect(read.body.data.title).toBe('Space task');
  });
});
