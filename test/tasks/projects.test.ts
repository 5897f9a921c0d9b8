import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { createUser, createWorkspace, workspaceWithRoles } from '../helpers/factories.js';
import { createProject, createSpace, createTask } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('projects', () => {
  it('creates, reads, lists, updates, archives and unarchives a project', async () => {
    const { workspace, editor, viewer } = await workspaceWithRoles(t);
    const created = await t.request({
      method: 'POST',
      url: '/api/v1/projects',
      token: editor.token,
      body: { workspaceId: workspace.id, name: '  Launch  ', description: 'Ship it' },
    });
    expect(created.status).toBe(201);
    const project = created.body.data;
    expect(project).toMatchObject({
      workspaceId: workspace.id,
      spaceId: null,
      name: 'Launch',
      description: 'Ship it',
      archived: false,
      archivedAt: null,
      taskCount: 0,
      createdBy: editor.id,
    });
    await createTask(t, editor, workspace.id, { projectId: project.id });

    const got = await t.request({ url: `/api/projects/${project.id}`, token: viewer.token });
    expect(got.status).toBe(200);
    expect(got.body.data).toMatchObject({ id: project.id, name: 'Launch', taskCount: 1 });

    const updated = await t.request({
      method: 'PUT',
      url: `/api/v1/projects/${project.id}`,
      token: editor.token,
      body: { name: 'Launch v2', description: null },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ name: 'Launch v2', description: null });

    const archived = await t.request({ method: 'POST', url: `/api/v1/projects/${project.id}/archive`, token: editor.token });
    expect(archived.status).toBe(200);
    expect(archived.body.data.archived).toBe(true);
    expect(typeof archived.body.data.archivedAt).toBe('string');
    const again = await t.request({ method: 'POST', url: `/api/v1/projects/${project.id}/archive`, token: editor.token });
    expect(again.body.data.archivedAt).toBe(archived.body.data.archivedAt);

    const list = await t.request({ url: '/api/v1/projects', token: viewer.token, query: { workspaceId: workspace.id } });
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ data: [], meta: { page: 1, limit: 50, total: 0 } });
    const withArchived = await t.request({ url: '/api/v1/projects', token: viewer.token, query: { workspaceId: workspace.id, includeArchived: 'true' } });
    expect(withArchived.body.data.map((p: any) => p.id)).toEqual([project.id]);

    // An archived project takes no new tasks.
    const refused = await t.request({
      method: 'POST',
      url: '/api/v1/tasks',
      token: editor.token,
      body: { workspaceId: workspace.id, title: 'x', projectId: project.id },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'projectId', reason: 'archived' } });

    const unarchived = await t.request({ method: 'POST', url: `/api/v1/projects/${project.id}/unarchive`, token: editor.token, body: {} });
    expect(unarchived.body.data).toMatchObject({ archived: false, archivedAt: null });
    const listed = await t.request({ url: '/api/v1/projects', token: viewer.token, query: { workspaceId: workspace.id } });
    expect(listed.body.meta.total).toBe(1);
  });

  it('deleting a project keeps its tasks and clears their projectId', async () => {
    const { workspace, editor } = await workspaceWithRoles(t);
    const project = await createProject(t, editor, workspace.id);
    const task = await createTask(t, editor, workspace.id, { projectId: project.id });
    expect(task.project).toEqual({ id: project.id, name: 'A project' });

    const del = await t.request({ method: 'DELETE', url: `/api/v1/projects/${project.id}`, token: editor.token });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ data: { id: project.id, deleted: true } });
    expect((await t.request({ url: `/api/v1/projects/${project.id}`, token: editor.token })).status).toBe(404);

    const kept = await t.request({ url: `/api/v1/tasks/${task.id}`, token: editor.token });
    expect(kept.status).toBe(200);
    expect(kept.body.data).toMatchObject({ id: task.id, projectId: null, project: null });
  });

  it('checks roles: viewers read, editors write, outsiders get 403', async () => {
    const { workspace, editor, viewer, outsider } = await workspaceWithRoles(t);
    const project = await createProject(t, editor, workspace.id);
    const denied = await t.request({ method: 'POST', url: '/api/v1/projects', token: viewer.token, body: { workspaceId: workspace.id, name: 'No' } });
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('FORBIDDEN');
    for (const [method, url] of [
      ['PUT', `/api/v1/projects/${project.id}`],
      ['POST', `/api/v1/projects/${project.id}/archive`],
      ['DELETE', `/api/v1/projects/${project.id}`],
    ] as const) {
      const res = await t.request({ method, url, token: viewer.token, body: method === 'PUT' ? { name: 'x' } : undefined });
      expect(res.status, `${method} ${url}`).toBe(403);
    }
    expect((await t.request({ url: '/api/v1/projects', token: outsider.token, query: { workspaceId: workspace.id } })).status).toBe(403);
    expect((await t.request({ url: `/api/v1/projects/${project.id}`, token: outsider.token })).status).toBe(403);
    expect((await t.request({ url: `/api/v1/projects/${project.id}` })).status).toBe(401);
  });

  it('refuses bad input and a space or workspace that does not match', async () => {
    const { workspace, admin, editor } = await workspaceWithRoles(t);
    const missing = await t.request({ method: 'POST', url: '/api/v1/projects', token: editor.token, body: { workspaceId: workspace.id } });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ code: 'MISSING_REQUIRED', details: { field: 'name' } });
    const long = await t.request({ method: 'POST', url: '/api/v1/projects', token: editor.token, body: { workspaceId: workspace.id, name: 'x'.repeat(201) } });
    expect(long.status).toBe(422);
    const badQuery = await t.request({ url: '/api/v1/projects', token: editor.token, query: { workspaceId: workspace.id, includeArchived: 'maybe' } });
    expect(badQuery.status).toBe(400);
    expect(badQuery.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { field: 'includeArchived' } });
    const noWorkspace = await t.request({ url: '/api/v1/projects', token: editor.token });
    expect(noWorkspace.status).toBe(400);
    expect(noWorkspace.body.error.code).toBe('MISSING_REQUIRED');

    const other = await createWorkspace(t, admin, 'Other');
    const foreignSpace = await createSpace(t, admin, other.id);
    const wrongSpace = await t.request({
      method: 'POST',
      url: '/api/v1/projects',
      token: admin.token,
      body: { workspaceId: workspace.id, name: 'P', spaceId: foreignSpace.id },
    });
    expect(wrongSpace.status).toBe(422);
    expect(wrongSpace.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'spaceId' } });

    const space = await createSpace(t, admin, workspace.id);
    const inSpace = await createProject(t, editor, workspace.id, { spaceId: space.id });
    expect(inSpace.spaceId).toBe(space.id);
    const bySpace = await t.request({ url: '/api/v1/projects', token: editor.token, query: { workspaceId: workspace.id, spaceId: space.id } });
    expect(bySpace.body.data.map((p: any) => p.id)).toEqual([inSpace.id]);

    const project = await createProject(t, editor, workspace.id);
    const mismatch = await t.request({ url: `/api/v1/projects/${project.id}`, token: admin.token, query: { workspaceId: other.id } });
    expect(mismatch.status).toBe(404);
    expect(mismatch.body.error.code).toBe('NOT_FOUND');
    expect((await t.request({ url: '/api/v1/projects/nope', token: editor.token })).status).toBe(404);
  });

  it('paginates with limit and page', async () => {
    const user = await createUser(t, 'Pat');
    const ws = await createWorkspace(t, user);
    for (const name of ['a', 'b', 'c']) await createProject(t, user, ws.id, { name });
    const page2 = await t.request({ url: '/api/v1/projects', token: user.token, query: { workspaceId: ws.id, limit: '2', page: '2' } });
    expect(page2.body.meta).toEqual({ page: 2, limit: 2, total: 3 });
    expect(page2.body.data.map((p: any) => p.name)).toEqual(['a']);
  });
});
