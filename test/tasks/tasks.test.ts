import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { createUser, createWorkspace, workspaceWithRoles } from '../helpers/factories.js';
import { createProject, createSpace, createTask } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('tasks: create, read, update, delete', () => {
  it('creates a task with every field and returns the detail form; lists return the list form', async () => {
    const { workspace, admin, editor, viewer } = await workspaceWithRoles(t);
    const project = await createProject(t, editor, workspace.id, { name: 'Roadmap' });
    const space = await createSpace(t, admin, workspace.id);
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/tasks',
      token: editor.token,
      body: {
        workspaceId: workspace.id,
        title: '  Write the docs  ',
        description: '# Docs\n\n- [ ] all of them',
        assigneeId: viewer.id,
        projectId: project.id,
        spaceId: space.id,
        dueDate: '2025-06-30',
        priority: 'high',
        bucket: 'now',
        labels: [' Docs ', 'docs', 'DOCS', 'writing'],
      },
    });
    expect(res.status).toBe(201);
    const task = res.body.data;
    expect(task).toEqual({
      id: expect.any(String),
      workspaceId: workspace.id,
      spaceId: space.id,
      projectId: project.id,
      pageId: null,
      assigneeId: viewer.id,
      title: 'Write the docs',
      description: '# Docs\n\n- [ ] all of them',
      status: 'todo',
      priority: 'high',
      bucket: 'now',
      dueDate: '2025-06-30',
      completedAt: null,
      labels: ['Docs', 'writing'],
      createdBy: editor.id,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      assignee: { id: viewer.id, name: 'Viewer', avatarUrl: null },
      project: { id: project.id, name: 'Roadmap' },
      page: null,
    });

    const got = await t.request({ url: `/api/tasks/${task.id}`, token: viewer.token });
    expect(got.status).toBe(200);
    expect(got.body.data).toEqual(task);

    const list = await t.request({ url: '/api/v1/tasks', token: viewer.token, query: { workspaceId: workspace.id } });
    expect(list.status).toBe(200);
    expect(list.body.meta).toEqual({ page: 1, limit: 50, total: 1 });
    const item = list.body.data[0];
    expect(item).toMatchObject({ id: task.id, assigneeId: viewer.id, projectId: project.id, labels: ['Docs', 'writing'] });
    expect(item).not.toHaveProperty('assignee');
    expect(item).not.toHaveProperty('project');
  });

  it('updates only the given fields, replaces labels and clears nullable fields', async () => {
    const { workspace, editor, viewer } = await workspaceWithRoles(t);
    const task = await createTask(t, editor, workspace.id, {
      dueDate: '2025-01-01',
      priority: 'low',
      labels: ['a', 'b'],
      assigneeId: viewer.id,
      description: 'd',
    });
    const res = await t.request({
      method: 'PUT',
      url: `/api/v1/tasks/${task.id}`,
      token: editor.token,
      body: { workspaceId: workspace.id, title: 'Renamed', dueDate: null, labels: ['B', ' c ', 'C'], bucket: 'later' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      title: 'Renamed',
      dueDate: null,
      labels: ['B', 'c'],
      bucket: 'later',
      priority: 'low',
      description: 'd',
      assigneeId: viewer.id,
      assignee: { id: viewer.id, name: 'Viewer' },
    });
    expect(res.body.data.updatedAt >= task.updatedAt).toBe(true);

    const cleared = await t.request({
      method: 'PUT',
      url: `/api/v1/tasks/${task.id}`,
      token: editor.token,
      body: { assigneeId: null, priority: null, description: null, bucket: null, labels: [] },
    });
    expect(cleared.body.data).toMatchObject({
      assigneeId: null,
      assignee: null,
      priority: null,
      description: null,
      bucket: null,
      labels: [],
      title: 'Renamed',
    });
    const read = await t.request({ url: `/api/v1/tasks/${task.id}`, token: viewer.token });
    expect(read.body.data).toMatchObject({ title: 'Renamed', labels: [], assignee: null });
  });

  it('accepts a full ISO date-time as dueDate and returns the calendar date', async () => {
    const { workspace, editor } = await workspaceWithRoles(t);
    const a = await createTask(t, editor, workspace.id, { dueDate: '2025-03-04T23:30:00-05:00' });
    expect(a.dueDate).toBe('2025-03-04');
    const b = await createTask(t, editor, workspace.id, { dueDate: '2024-02-29T10:00:00Z' });
    expect(b.dueDate).toBe('2024-02-29');
  });

  it('deletes a task: 200 { data: { id, deleted } }, then 404', async () => {
    const { workspace, editor } = await workspaceWithRoles(t);
    const task = await createTask(t, editor, workspace.id, { labels: ['gone'] });
    const del = await t.request({ method: 'DELETE', url: `/api/v1/tasks/${task.id}`, token: editor.token, query: { workspaceId: workspace.id } });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ data: { id: task.id, deleted: true } });
    const after = await t.request({ url: `/api/v1/tasks/${task.id}`, token: editor.token });
    expect(after.status).toBe(404);
    expect(after.body.error).toMatchObject({ code: 'NOT_FOUND' });
    const labels = await t.request({ url: '/api/v1/labels', token: editor.token, query: { workspaceId: workspace.id } });
    expect(labels.body.data).toEqual([]);
    expect((await t.request({ method: 'DELETE', url: `/api/v1/tasks/${task.id}`, token: editor.token })).status).toBe(404);
  });
});

describe('tasks: completion', () => {
  it('complete sets done and completedAt; completing again keeps it; leaving done clears it; setting done sets it', async () => {
    const { workspace, editor } = await workspaceWithRoles(t);
    const task = await createTask(t, editor, workspace.id);
    expect(task).toMatchObject({ status: 'todo', completedAt: null });

    const done = await t.request({ method: 'POST', url: `/api/v1/tasks/${task.id}/complete`, token: editor.token, body: { workspaceId: workspace.id } });
    expect(done.status).toBe(200);
    expect(done.body.data.status).toBe('done');
    expect(Date.parse(done.body.data.completedAt)).not.toBeNaN();

    const again = await t.request({ method: 'POST', url: `/api/v1/tasks/${task.id}/complete`, token: editor.token });
    expect(again.body.data.completedAt).toBe(done.body.data.completedAt);
    const stillDone = await t.request({ method: 'PUT', url: `/api/v1/tasks/${task.id}`, token: editor.token, body: { status: 'done', title: 'x' } });
    expect(stillDone.body.data.completedAt).toBe(done.body.data.completedAt);

    const reopened = await t.request({ method: 'PUT', url: `/api/v1/tasks/${task.id}`, token: editor.token, body: { status: 'in_progress' } });
    expect(reopened.body.data).toMatchObject({ status: 'in_progress', completedAt: null });

    const setDone = await t.request({ method: 'PUT', url: `/api/v1/tasks/${task.id}`, token: editor.token, body: { status: 'done' } });
    expect(setDone.body.data.status).toBe('done');
    expect(setDone.body.data.completedAt).not.toBeNull();
    expect((await t.request({ url: `/api/v1/tasks/${task.id}`, token: editor.token })).body.data.completedAt).toBe(setDone.body.data.completedAt);

    const createdDone = await createTask(t, editor, workspace.id, { status: 'done' });
    expect(createdDone.completedAt).not.toBeNull();
  });
});

describe('tasks: assign', () => {
  it('assigns to a member, unassigns with null, and refuses a non-member with 422', async () => {
    const { workspace, editor, viewer, outsider } = await workspaceWithRoles(t);
    const task = await createTask(t, editor, workspace.id);
    const assigned = await t.request({
      method: 'POST',
      url: `/api/v1/tasks/${task.id}/assign`,
      token: editor.token,
      body: { workspaceId: workspace.id, assigneeId: viewer.id },
    });
    expect(assigned.status).toBe(200);
    expect(assigned.body.data).toMatchObject({ assigneeId: viewer.id, assignee: { id: viewer.id, name: 'Viewer', avatarUrl: null } });

    const foreign = await t.request({ method: 'POST', url: `/api/v1/tasks/${task.id}/assign`, token: editor.token, body: { assigneeId: outsider.id } });
    expect(foreign.status).toBe(422);
    expect(foreign.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'assigneeId', reason: 'not_member' } });
    const missing = await t.request({ method: 'POST', url: `/api/v1/tasks/${task.id}/assign`, token: editor.token, body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ code: 'MISSING_REQUIRED', details: { field: 'assigneeId' } });

    const unassigned = await t.request({ method: 'POST', url: `/api/v1/tasks/${task.id}/assign`, token: editor.token, body: { assigneeId: null } });
    expect(unassigned.body.data).toMatchObject({ assigneeId: null, assignee: null });

    const created = await t.request({
      method: 'POST',
      url: '/api/v1/tasks',
      token: editor.token,
      body: { workspaceId: workspace.id, title: 'x', assigneeId: outsider.id },
    });
    expect(created.status).toBe(422);
    expect(created.body.error.details.field).toBe('assigneeId');
    const updated = await t.request({ method: 'PUT', url: `/api/v1/tasks/${task.id}`, token: editor.token, body: { assigneeId: 'no-such-user' } });
    expect(updated.status).toBe(422);
  });
});

describe('tasks: access', () => {
  it('viewers read but cannot write; outsiders get 403; unknown ids 404; no credentials 401', async () => {
    const { workspace, editor, viewer, outsider } = await workspaceWithRoles(t);
    const task = await createTask(t, editor, workspace.id);
    expect((await t.request({ url: `/api/v1/tasks/${task.id}`, token: viewer.token })).status).toBe(200);
    const writes = [
      { method: 'POST' as const, url: '/api/v1/tasks', body: { workspaceId: workspace.id, title: 'No' } },
      { method: 'PUT' as const, url: `/api/v1/tasks/${task.id}`, body: { title: 'No' } },
      { method: 'POST' as const, url: `/api/v1/tasks/${task.id}/complete`, body: {} },
      { method: 'POST' as const, url: `/api/v1/tasks/${task.id}/assign`, body: { assigneeId: viewer.id } },
      { method: 'DELETE' as const, url: `/api/v1/tasks/${task.id}`, body: undefined },
    ];
    for (const w of writes) {
      const res = await t.request({ ...w, token: viewer.token });
      expect(res.status, `${w.method} ${w.url}`).toBe(403);
      expect(res.body.error.code).toBe('FORBIDDEN');
    }
    expect((await t.request({ url: `/api/v1/tasks/${task.id}`, token: viewer.token })).body.data).toMatchObject({
      title: 'A task',
      status: 'todo',
      assigneeId: null,
    });

    for (const req of [
      { url: '/api/v1/tasks', query: { workspaceId: workspace.id } },
      { url: `/api/v1/tasks/${task.id}` },
      { url: '/api/v1/labels', query: { workspaceId: workspace.id } },
      { url: '/api/v1/tasks/triage-summary', query: { workspaceId: workspace.id } },
    ]) {
      const res = await t.request({ ...req, token: outsider.token });
      expect(res.status, req.url).toBe(403);
    }
    expect((await t.request({ method: 'POST', url: '/api/v1/tasks', token: outsider.token, body: { workspaceId: workspace.id, title: 'x' } })).status).toBe(
      403,
    );
    expect((await t.request({ url: '/api/v1/tasks/no-such-task', token: editor.token })).status).toBe(404);
    expect((await t.request({ url: '/api/v1/tasks', query: { workspaceId: 'no-such-ws' }, token: editor.token })).status).toBe(404);
    expect((await t.request({ url: `/api/v1/tasks/${task.id}` })).status).toBe(401);
  });

  it('takes the workspace from the task: a different workspaceId is 404', async () => {
    const { workspace, admin, editor } = await workspaceWithRoles(t);
    const other = await createWorkspace(t, admin, 'Other');
    const task = await createTask(t, editor, workspace.id);
    expect((await t.request({ url: `/api/v1/tasks/${task.id}`, token: admin.token, query: { workspaceId: other.id } })).status).toBe(404);
    expect((await t.request({ method: 'PUT', url: `/api/v1/tasks/${task.id}`, token: admin.token, body: { workspaceId: other.id, title: 'x' } })).status).toBe(
      404,
    );
    expect((await t.request({ method: 'POST', url: `/api/v1/tasks/${task.id}/complete`, token: admin.token, body: { workspaceId: other.id } })).status).toBe(
      404,
    );
    expect((await t.request({ method: 'DELETE', url: `/api/v1/tasks/${task.id}`, token: admin.token, query: { workspaceId: other.id } })).status).toBe(404);
    expect((await t.request({ url: `/api/v1/tasks/${task.id}`, token: admin.token, query: { workspaceId: workspace.id } })).status).toBe(200);
  });

  it('refuses a project or space of another workspace with 422', async () => {
    const { workspace, admin, editor } = await workspaceWithRoles(t);
    const other = await createWorkspace(t, admin, 'Other');
    const foreignProject = await createProject(t, admin, other.id);
    const foreignSpace = await createSpace(t, admin, other.id);
    const byProject = await t.request({
      method: 'POST',
      url: '/api/v1/tasks',
      token: admin.token,
      body: { workspaceId: workspace.id, title: 'x', projectId: foreignProject.id },
    });
    expect(byProject.status).toBe(422);
    expect(byProject.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'projectId', reason: 'not_found' } });
    const bySpace = await t.request({
      method: 'POST',
      url: '/api/v1/tasks',
      token: admin.token,
      body: { workspaceId: workspace.id, title: 'x', spaceId: foreignSpace.id },
    });
    expect(bySpace.status).toBe(422);
    expect(bySpace.body.error.details.field).toBe('spaceId');
    const task = await createTask(t, editor, workspace.id);
    const moved = await t.request({ method: 'PUT', url: `/api/v1/tasks/${task.id}`, token: admin.token, body: { spaceId: foreignSpace.id } });
    expect(moved.status).toBe(422);
    const reproject = await t.request({ method: 'PUT', url: `/api/v1/tasks/${task.id}`, token: admin.token, body: { projectId: foreignProject.id } });
    expect(reproject.status).toBe(422);
    expect((await t.request({ url: `/api/v1/tasks/${task.id}`, token: admin.token })).body.data).toMatchObject({ spaceId: null, projectId: null });
  });
});

describe('tasks: bad input', () => {
  it('answers 400 for missing fields and bad query parameters, 422 for bad bodies', async () => {
    const user = await createUser(t, 'Val');
    const ws = await createWorkspace(t, user);
    const task = await createTask(t, user, ws.id);
    const post = (body: unknown) => t.request({ method: 'POST', url: '/api/v1/tasks', token: user.token, body });
    const put = (body: unknown) => t.request({ method: 'PUT', url: `/api/v1/tasks/${task.id}`, token: user.token, body });

    const cases: [string, Promise<any>, number, string, string][] = [
      ['missing title', post({ workspaceId: ws.id }), 400, 'MISSING_REQUIRED', 'title'],
      ['missing workspaceId', post({ title: 'x' }), 400, 'MISSING_REQUIRED', 'workspaceId'],
      ['empty title', post({ workspaceId: ws.id, title: '   ' }), 422, 'VALIDATION_ERROR', 'title'],
      ['long title', post({ workspaceId: ws.id, title: 'x'.repeat(501) }), 422, 'VALIDATION_ERROR', 'title'],
      ['bad priority', post({ workspaceId: ws.id, title: 'x', priority: 'urgent' }), 422, 'VALIDATION_ERROR', 'priority'],
      ['bad status', put({ status: 'blocked' }), 422, 'VALIDATION_ERROR', 'status'],
      ['bad bucket', put({ bucket: 'someday' }), 422, 'VALIDATION_ERROR', 'bucket'],
      ['impossible date', post({ workspaceId: ws.id, title: 'x', dueDate: '2025-02-30' }), 422, 'VALIDATION_ERROR', 'dueDate'],
      ['not a date', put({ dueDate: 'tomorrow' }), 422, 'VALIDATION_ERROR', 'dueDate'],
      ['date as number', put({ dueDate: 20250101 }), 422, 'VALIDATION_ERROR', 'dueDate'],
      ['bad hour', put({ dueDate: '2025-01-01T25:00:00Z' }), 422, 'VALIDATION_ERROR', 'dueDate'],
      ['labels not array', put({ labels: 'a,b' }), 422, 'VALIDATION_ERROR', 'labels'],
      ['empty label', put({ labels: ['ok', '  '] }), 422, 'VALIDATION_ERROR', 'labels.1'],
      ['long label', put({ labels: ['x'.repeat(51)] }), 422, 'VALIDATION_ERROR', 'labels.0'],
      ['too many labels', put({ labels: Array.from({ length: 21 }, (_, i) => `l${i}`) }), 422, 'VALIDATION_ERROR', 'labels'],
      ['long description', put({ description: 'x'.repeat(10_001) }), 422, 'VALIDATION_ERROR', 'description'],
    ];
    for (const [name, promise, status, code, field] of cases) {
      const res = await promise;
      expect(res.status, name).toBe(status);
      expect(res.body.error, name).toMatchObject({ code, details: { field } });
    }

    const q = (query: Record<string, string>) => t.request({ url: '/api/v1/tasks', token: user.token, query: { workspaceId: ws.id, ...query } });
    for (const [query, field] of [
      [{ status: 'blocked' }, 'status'],
      [{ priority: 'urgent' }, 'priority'],
      [{ bucket: 'someday' }, 'bucket'],
      [{ sort: 'title' }, 'sort'],
      [{ order: 'up' }, 'order'],
      [{ limit: 'abc' }, 'limit'],
      [{ limit: '101' }, 'limit'],
      [{ limit: '0' }, 'limit'],
      [{ page: '0' }, 'page'],
      [{ dueBefore: '2025-13-01' }, 'dueBefore'],
      [{ dueAfter: 'yesterday' }, 'dueAfter'],
    ] as [Record<string, string>, string][]) {
      const res = await q(query);
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.body.error.code).toBe('INVALID_PARAMETER');
      expect(String(res.body.error.details.field).startsWith(field)).toBe(true);
    }
    const noWs = await t.request({ url: '/api/v1/tasks', token: user.token });
    expect(noWs.status).toBe(400);
    expect(noWs.body.error).toMatchObject({ code: 'MISSING_REQUIRED', details: { field: 'workspaceId' } });

    const malformed = await t.request({
      method: 'POST',
      url: '/api/v1/tasks',
      token: user.token,
      body: '{"title":',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    expect((await t.request({ url: `/api/v1/tasks/${task.id}`, token: user.token })).body.data).toMatchObject({ title: 'A task', status: 'todo', labels: [] });
  });
});
