import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { addMember, createUser, createWorkspace, workspaceWithRoles } from '../helpers/factories.js';
import { addSpaceMember, createSpace, createTask } from '../tasks/helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const goalsUrl = (ws: string) => `/api/workspaces/${ws}/goals`;

describe('goals', () => {
  it('creates a goal (bare body, counts 0), reads, patches only given fields and deletes it keeping tasks', async () => {
    const { workspace, editor, viewer } = await workspaceWithRoles(t);
    const created = await t.request({
      method: 'POST',
      url: goalsUrl(workspace.id),
      token: editor.token,
      body: { title: ' Ship v1 ', horizon: 'mid', description: 'By the end of the quarter', keywords: ['launch', ' Launch ', 'v1'] },
    });
    expect(created.status).toBe(201);
    const goal = created.body;
    expect(goal).toEqual({
      id: expect.any(String),
      workspaceId: workspace.id,
      spaceId: null,
      title: 'Ship v1',
      description: 'By the end of the quarter',
      horizon: 'mid',
      keywords: ['launch', 'v1'],
      taskCount: 0,
      completedTaskCount: 0,
      progress: 0,
      createdBy: editor.id,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });

    const got = await t.request({ url: `${goalsUrl(workspace.id)}/${goal.id}`, token: viewer.token });
    expect(got.status).toBe(200);
    expect(got.body).toEqual(goal);

    const patched = await t.request({
      method: 'PATCH',
      url: `${goalsUrl(workspace.id)}/${goal.id}`,
      token: editor.token,
      body: { horizon: 'long', keywords: [] },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ title: 'Ship v1', description: 'By the end of the quarter', horizon: 'long', keywords: [] });

    const task = await createTask(t, editor, workspace.id);
    const link = await t.request({ method: 'POST', url: `${goalsUrl(workspace.id)}/${goal.id}/tasks`, token: editor.token, body: { taskId: task.id } });
    expect(link.body).toEqual({ success: true, goal: { id: goal.id, taskCount: 1 } });

    const del = await t.request({ method: 'DELETE', url: `${goalsUrl(workspace.id)}/${goal.id}`, token: editor.token });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ success: true });
    const gone = await t.request({ url: `${goalsUrl(workspace.id)}/${goal.id}`, token: editor.token });
    expect(gone.status).toBe(404);
    expect(gone.body.error).toMatchObject({ code: 'NOT_FOUND', message: expect.any(String), details: expect.any(Object) });
    expect((await t.request({ url: `/api/v1/tasks/${task.id}`, token: editor.token })).status).toBe(200);
  });

  it('computes taskCount, completedTaskCount and progress in SQL: 5 of 8 done gives 62.5', async () => {
    const { workspace, editor } = await workspaceWithRoles(t);
    const goal = (await t.request({ method: 'POST', url: goalsUrl(workspace.id), token: editor.token, body: { title: 'G', horizon: 'short' } })).body;
    const tasks = [];
    for (let i = 0; i < 8; i++) tasks.push(await createTask(t, editor, workspace.id, { title: `T${i}`, priority: i % 2 ? 'low' : 'high' }));
    for (const task of tasks) {
      const res = await t.request({ method: 'POST', url: `${goalsUrl(workspace.id)}/${goal.id}/tasks`, token: editor.token, body: { taskId: task.id } });
      expect(res.status).toBe(200);
    }
    for (const task of tasks.slice(0, 5)) await t.request({ method: 'POST', url: `/api/v1/tasks/${task.id}/complete`, token: editor.token });

    const got = await t.request({ url: `${goalsUrl(workspace.id)}/${goal.id}`, token: editor.token, query: { includeTasks: 'true' } });
    expect(got.body).toMatchObject({ taskCount: 8, completedTaskCount: 5, progress: 62.5 });
    expect(got.body.tasks).toHaveLength(8);
    expect(got.body.tasks[0]).toEqual({ id: tasks[0].id, title: 'T0', status: 'done', priority: 'high' });
    expect(got.body.tasks[7]).toEqual({ id: tasks[7].id, title: 'T7', status: 'todo', priority: 'low' });
    const without = await t.request({ url: `${goalsUrl(workspace.id)}/${goal.id}`, token: editor.token });
    expect(without.body).not.toHaveProperty('tasks');

    // Linking twice changes nothing.
    const twice = await t.request({ method: 'POST', url: `${goalsUrl(workspace.id)}/${goal.id}/tasks`, token: editor.token, body: { taskId: tasks[0].id } });
    expect(twice.body).toEqual({ success: true, goal: { id: goal.id, taskCount: 8 } });

    // Unlinking, and reopening a task, move the figures.
    const unlink = await t.request({ method: 'DELETE', url: `${goalsUrl(workspace.id)}/${goal.id}/tasks/${tasks[7].id}`, token: editor.token });
    expect(unlink.status).toBe(200);
    expect(unlink.body).toEqual({ success: true, goal: { id: goal.id, taskCount: 7 } });
    await t.request({ method: 'PUT', url: `/api/v1/tasks/${tasks[0].id}`, token: editor.token, body: { status: 'todo' } });
    const after = await t.request({ url: `${goalsUrl(workspace.id)}/${goal.id}`, token: editor.token });
    expect(after.body).toMatchObject({ taskCount: 7, completedTaskCount: 4, progress: 57.14 });

    // A deleted task leaves the goal.
    await t.request({ method: 'DELETE', url: `/api/v1/tasks/${tasks[6].id}`, token: editor.token });
    expect((await t.request({ url: `${goalsUrl(workspace.id)}/${goal.id}`, token: editor.token })).body.taskCount).toBe(6);
  });

  it('links only tasks of the same workspace (422) and unlinks only known tasks (404)', async () => {
    const { workspace, admin, editor } = await workspaceWithRoles(t);
    const other = await createWorkspace(t, admin, 'Other');
    const foreign = await createTask(t, admin, other.id);
    const goal = (await t.request({ method: 'POST', url: goalsUrl(workspace.id), token: editor.token, body: { title: 'G', horizon: 'short' } })).body;
    const cross = await t.request({ method: 'POST', url: `${goalsUrl(workspace.id)}/${goal.id}/tasks`, token: admin.token, body: { taskId: foreign.id } });
    expect(cross.status).toBe(422);
    expect(cross.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'taskId' } });
    const unknown = await t.request({ method: 'POST', url: `${goalsUrl(workspace.id)}/${goal.id}/tasks`, token: editor.token, body: { taskId: 'nope' } });
    expect(unknown.status).toBe(422);
    const missing = await t.request({ method: 'POST', url: `${goalsUrl(workspace.id)}/${goal.id}/tasks`, token: editor.token, body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe('MISSING_REQUIRED');
    const unlinkUnknown = await t.request({ method: 'DELETE', url: `${goalsUrl(workspace.id)}/${goal.id}/tasks/nope`, token: editor.token });
    expect(unlinkUnknown.status).toBe(404);
    const task = await createTask(t, editor, workspace.id);
    const unlinkUnlinked = await t.request({ method: 'DELETE', url: `${goalsUrl(workspace.id)}/${goal.id}/tasks/${task.id}`, token: editor.token });
    expect(unlinkUnlinked.body).toEqual({ success: true, goal: { id: goal.id, taskCount: 0 } });
    // A goal of another workspace under this workspace's path: 404.
    const otherGoal = (await t.request({ method: 'POST', url: goalsUrl(other.id), token: admin.token, body: { title: 'O', horizon: 'long' } })).body;
    expect((await t.request({ url: `${goalsUrl(workspace.id)}/${otherGoal.id}`, token: admin.token })).status).toBe(404);
  });

  it('lists goals with horizon and spaceId filters, limit/offset and includeTasks', async () => {
    const user = await createUser(t, 'Lister');
    const ws = await createWorkspace(t, user);
    const space = await createSpace(t, user, ws.id);
    const make = (body: object) => t.request({ method: 'POST', url: goalsUrl(ws.id), token: user.token, body });
    const a = (await make({ title: 'A', horizon: 'short' })).body;
    const b = (await make({ title: 'B', horizon: 'mid', spaceId: space.id })).body;
    const c = (await make({ title: 'C', horizon: 'short', spaceId: space.id })).body;
    const task = await createTask(t, user, ws.id, { title: 'Linked' });
    await t.request({ method: 'POST', url: `${goalsUrl(ws.id)}/${a.id}/tasks`, token: user.token, body: { taskId: task.id } });

    const all = await t.request({ url: goalsUrl(ws.id), token: user.token });
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ total: 3, limit: 50, offset: 0 });
    expect(all.body.goals.map((g: any) => g.title)).toEqual(['C', 'B', 'A']);
    expect(all.body.goals[0]).not.toHaveProperty('tasks');
    expect(all.body.goals[2]).toMatchObject({ taskCount: 1, completedTaskCount: 0, progress: 0 });

    const short = await t.request({ url: goalsUrl(ws.id), token: user.token, query: { horizon: 'short' } });
    expect(short.body.goals.map((g: any) => g.id)).toEqual([c.id, a.id]);
    expect(short.body.total).toBe(2);
    const inSpace = await t.request({ url: goalsUrl(ws.id), token: user.token, query: { spaceId: space.id, horizon: 'mid' } });
    expect(inSpace.body.goals.map((g: any) => g.id)).toEqual([b.id]);
    const paged = await t.request({ url: goalsUrl(ws.id), token: user.token, query: { limit: '1', offset: '1' } });
    expect(paged.body).toMatchObject({ total: 3, limit: 1, offset: 1 });
    expect(paged.body.goals.map((g: any) => g.id)).toEqual([b.id]);
    const withTasks = await t.request({ url: goalsUrl(ws.id), token: user.token, query: { includeTasks: 'true' } });
    expect(withTasks.body.goals.map((g: any) => g.tasks.length)).toEqual([0, 0, 1]);
    expect(withTasks.body.goals[2].tasks).toEqual([{ id: task.id, title: 'Linked', status: 'todo', priority: null }]);
  });

  it('refuses bad input: 400 in the query or a missing field, 422 in the body', async () => {
    const { workspace, editor } = await workspaceWithRoles(t);
    const post = (body: unknown) => t.request({ method: 'POST', url: goalsUrl(workspace.id), token: editor.token, body });
    const cases: [unknown, number, string, string][] = [
      [{ horizon: 'short' }, 400, 'MISSING_REQUIRED', 'title'],
      [{ title: 'x' }, 400, 'MISSING_REQUIRED', 'horizon'],
      [{ title: 'x', horizon: 'forever' }, 422, 'VALIDATION_ERROR', 'horizon'],
      [{ title: 'x', horizon: 'short', keywords: 'a' }, 422, 'VALIDATION_ERROR', 'keywords'],
      [{ title: 'x', horizon: 'short', keywords: [1] }, 422, 'VALIDATION_ERROR', 'keywords.0'],
      [{ title: 'x'.repeat(501), horizon: 'short' }, 422, 'VALIDATION_ERROR', 'title'],
      [{ title: 'x', horizon: 'short', spaceId: 'no-such-space' }, 422, 'VALIDATION_ERROR', 'spaceId'],
    ];
    for (const [body, status, code, field] of cases) {
      const res = await post(body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.error).toMatchObject({ code, details: { field } });
    }
    for (const query of [{ horizon: 'forever' }, { limit: 'abc' }, { limit: '0' }, { offset: '-1' }, { includeTasks: 'yes' }] as Record<string, string>[]) {
      const res = await t.request({ url: goalsUrl(workspace.id), token: editor.token, query });
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.body.error.code).toBe('INVALID_PARAMETER');
    }
    const goal = (await post({ title: 'x', horizon: 'short' })).body;
    const badPatch = await t.request({ method: 'PATCH', url: `${goalsUrl(workspace.id)}/${goal.id}`, token: editor.token, body: { horizon: 'someday' } });
    expect(badPatch.status).toBe(422);
    expect((await t.request({ url: `${goalsUrl(workspace.id)}/${goal.id}`, token: editor.token })).body.horizon).toBe('short');
    expect((await t.request({ url: goalsUrl(workspace.id), token: editor.token })).body.total).toBe(1);
  });

  it('checks roles: viewers read, editors write, outsiders get 403', async () => {
    const { workspace, editor, viewer, outsider } = await workspaceWithRoles(t);
    const goal = (await t.request({ method: 'POST', url: goalsUrl(workspace.id), token: editor.token, body: { title: 'G', horizon: 'short' } })).body;
    const task = await createTask(t, editor, workspace.id);
    expect((await t.request({ url: goalsUrl(workspace.id), token: viewer.token })).status).toBe(200);
    for (const req of [
      { method: 'POST' as const, url: goalsUrl(workspace.id), body: { title: 'x', horizon: 'short' } },
      { method: 'PATCH' as const, url: `${goalsUrl(workspace.id)}/${goal.id}`, body: { title: 'x' } },
      { method: 'DELETE' as const, url: `${goalsUrl(workspace.id)}/${goal.id}` },
      { method: 'POST' as const, url: `${goalsUrl(workspace.id)}/${goal.id}/tasks`, body: { taskId: task.id } },
      { method: 'DELETE' as const, url: `${goalsUrl(workspace.id)}/${goal.id}/tasks/${task.id}` },
    ]) {
      const res = await t.request({ ...req, token: viewer.token });
      expect(res.status, `${req.method} ${req.url}`).toBe(403);
      expect(res.body.error.code).toBe('FORBIDDEN');
    }
    expect((await t.request({ url: goalsUrl(workspace.id), token: outsider.token })).status).toBe(403);
    expect((await t.request({ url: `${goalsUrl(workspace.id)}/${goal.id}`, token: outsider.token })).status).toBe(403);
    expect((await t.request({ url: goalsUrl('no-such-workspace'), token: editor.token })).status).toBe(404);
    expect((await t.request({ url: goalsUrl(workspace.id) })).status).toBe(401);
    expect((await t.request({ url: `${goalsUrl(workspace.id)}/${goal.id}`, token: viewer.token })).body.title).toBe('G');
  });

  it('hides private-space tasks and goals from members outside the space', async () => {
    const { workspace, admin, editor } = await workspaceWithRoles(t);
    const insider = await createUser(t, 'Insider');
    await addMember(t, workspace.id, admin, insider, 'editor');
    const secret = await createSpace(t, admin, workspace.id, 'private');
    await addSpaceMember(t, admin, workspace.id, secret.id, insider, 'editor');

    const goal = (await t.request({ method: 'POST', url: goalsUrl(workspace.id), token: insider.token, body: { title: 'Public goal', horizon: 'short' } }))
      .body;
    const openTask = await createTask(t, insider, workspace.id, { title: 'Open' });
    const hiddenTask = await createTask(t, insider, workspace.id, { title: 'Hidden', spaceId: secret.id, status: 'done' });
    for (const task of [openTask, hiddenTask])
      expect(
        (await t.request({ method: 'POST', url: `${goalsUrl(workspace.id)}/${goal.id}/tasks`, token: insider.token, body: { taskId: task.id } })).status,
      ).toBe(200);
    const secretGoal = (
      await t.request({
        method: 'POST',
        url: goalsUrl(workspace.id),
        token: insider.token,
        body: { title: 'Secret goal', horizon: 'long', spaceId: secret.id },
      })
    ).body;

    const insiderView = await t.request({ url: `${goalsUrl(workspace.id)}/${goal.id}`, token: insider.token, query: { includeTasks: 'true' } });
    expect(insiderView.body).toMatchObject({ taskCount: 2, completedTaskCount: 1, progress: 50 });

    const outsiderView = await t.request({ url: `${goalsUrl(workspace.id)}/${goal.id}`, token: editor.token, query: { includeTasks: 'true' } });
    expect(outsiderView.body).toMatchObject({ taskCount: 1, completedTaskCount: 0, progress: 0 });
    expect(outsiderView.body.tasks.map((x: any) => x.title)).toEqual(['Open']);
    const list = await t.request({ url: goalsUrl(workspace.id), token: editor.token, query: { includeTasks: 'true' } });
    expect(list.body.total).toBe(1);
    expect(list.body.goals.map((g: any) => g.title)).toEqual(['Public goal']);
    expect((await t.request({ url: `${goalsUrl(workspace.id)}/${secretGoal.id}`, token: editor.token })).status).toBe(404);
    const link = await t.request({ method: 'POST', url: `${goalsUrl(workspace.id)}/${goal.id}/tasks`, token: editor.token, body: { taskId: hiddenTask.id } });
    expect(link.status).toBe(422);
    const intoSecret = await t.request({
      method: 'POST',
      url: goalsUrl(workspace.id),
      token: editor.token,
      body: { title: 'x', horizon: 'short', spaceId: secret.id },
    });
    expect(intoSecret.status).toBe(422);
  });
});
