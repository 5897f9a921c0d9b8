import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { addMember, createUser, createWorkspace, type TestUser } from '../helpers/factories.js';
import { createProject, createSpace, createTask } from './helpers.js';

let t: TestApp;
let owner: TestUser;
let member: TestUser;
let ws: { id: string };
let space: { id: string };
let project: { id: string };
const ids: Record<string, string> = {};

/** Titles name the tasks; each has a different mix of fields. */
beforeAll(async () => {
  t = await createTestApp();
  owner = await createUser(t, 'Owner');
  member = await createUser(t, 'Member');
  ws = await createWorkspace(t, owner);
  await addMember(t, ws.id, owner, member, 'editor');
  space = await createSpace(t, owner, ws.id);
  project = await createProject(t, owner, ws.id);
  const specs: [string, Record<string, unknown>][] = [
    ['A', { priority: 'high', dueDate: '2025-01-10', bucket: 'now', labels: ['Bug', 'UI'], assigneeId: member.id, spaceId: space.id }],
    ['B', { priority: 'low', dueDate: '2025-01-20', bucket: 'next', labels: ['bug'], projectId: project.id }],
    ['C', { priority: 'medium', dueDate: '2025-01-30', labels: ['ui'], assigneeId: member.id, projectId: project.id, spaceId: space.id }],
    ['D', { status: 'done', priority: 'high', bucket: 'now', labels: ['bug'] }],
    ['E', { status: 'in_progress', bucket: 'later', assigneeId: owner.id }],
    ['F', { dueDate: '2025-01-05', bucket: 'now' }],
  ];
  for (const [title, body] of specs) ids[title] = (await createTask(t, owner, ws.id, { title, ...body })).id;
});
afterAll(() => t.close());

const list = async (query: Record<string, string | string[]>) => {
  const res = await t.request({ url: '/api/v1/tasks', token: member.token, query: { workspaceId: ws.id, ...query } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};
const titles = async (query: Record<string, string | string[]>) => (await list(query)).data.map((x: any) => x.title);

describe('task filters', () => {
  it('filters by each field', async () => {
    expect((await titles({ spaceId: space.id })).sort()).toEqual(['A', 'C']);
    expect((await titles({ projectId: project.id })).sort()).toEqual(['B', 'C']);
    expect((await titles({ assigneeId: member.id })).sort()).toEqual(['A', 'C']);
    expect(await titles({ status: 'done' })).toEqual(['D']);
    expect((await titles({ status: 'todo,in_progress' })).sort()).toEqual(['A', 'B', 'C', 'E', 'F']);
    expect((await titles({ status: ['done', 'in_progress'] })).sort()).toEqual(['D', 'E']);
    expect((await titles({ priority: 'high' })).sort()).toEqual(['A', 'D']);
    expect((await titles({ bucket: 'now' })).sort()).toEqual(['A', 'D', 'F']);
    expect((await titles({ bucket: 'none' })).sort()).toEqual(['C']);
    expect((await titles({ bucket: 'later,none' })).sort()).toEqual(['C', 'E']);
    expect((await titles({ label: 'BUG' })).sort()).toEqual(['A', 'B', 'D']);
    expect(await titles({ label: ['bug', 'ui'] })).toEqual(['A']);
    expect((await titles({ dueBefore: '2025-01-20' })).sort()).toEqual(['A', 'B', 'F']);
    expect((await titles({ dueAfter: '2025-01-20' })).sort()).toEqual(['B', 'C']);
    expect(await titles({ dueAfter: '2025-01-06', dueBefore: '2025-01-19' })).toEqual(['A']);
  });

  it('combines filters', async () => {
    expect(await titles({ assigneeId: member.id, priority: 'medium' })).toEqual(['C']);
    expect(await titles({ label: 'bug', status: 'todo', spaceId: space.id })).toEqual(['A']);
    expect(await titles({ projectId: project.id, dueBefore: '2025-01-25', label: 'bug' })).toEqual(['B']);
    expect(await titles({ bucket: 'now', status: 'done', priority: 'high' })).toEqual(['D']);
    expect(
      await titles({ spaceId: space.id, projectId: project.id, assigneeId: member.id, status: 'todo', priority: 'medium', bucket: 'none', label: 'UI' }),
    ).toEqual(['C']);
    expect(await titles({ assigneeId: owner.id, label: 'bug' })).toEqual([]);
  });
});

describe('task sorting and paging', () => {
  it('sorts by dueDate (asc by default), nulls last in both directions', async () => {
    expect(await titles({ sort: 'dueDate' })).toEqual(['F', 'A', 'B', 'C', expect.any(String), expect.any(String)]);
    const desc = await titles({ sort: 'dueDate', order: 'desc' });
    expect(desc.slice(0, 4)).toEqual(['C', 'B', 'A', 'F']);
    expect(desc.slice(4).sort()).toEqual(['D', 'E']);
  });

  it('sorts by priority: high > medium > low, nulls last', async () => {
    const desc = await titles({ sort: 'priority' });
    expect(desc.slice(0, 2).sort()).toEqual(['A', 'D']);
    expect(desc.slice(2, 4)).toEqual(['C', 'B']);
    expect(desc.slice(4).sort()).toEqual(['E', 'F']);
    const asc = await titles({ sort: 'priority', order: 'asc' });
    expect(asc.slice(0, 2)).toEqual(['B', 'C']);
    expect(asc.slice(4).sort()).toEqual(['E', 'F']);
  });

  it('sorts by createdAt (newest first by default) and by updatedAt', async () => {
    expect(await titles({})).toEqual(['F', 'E', 'D', 'C', 'B', 'A']);
    expect(await titles({ sort: 'createdAt', order: 'asc' })).toEqual(['A', 'B', 'C', 'D', 'E', 'F']);
    const touched = await t.request({ method: 'PUT', url: `/api/v1/tasks/${ids.B}`, token: owner.token, body: { description: 'touched' } });
    expect(touched.status).toBe(200);
    expect((await titles({ sort: 'updatedAt' }))[0]).toBe('B');
    expect((await titles({ sort: 'updatedAt', order: 'asc' })).at(-1)).toBe('B');
  });

  it('pages with limit and page and reports meta', async () => {
    const first = await list({ limit: '4', sort: 'createdAt', order: 'asc' });
    expect(first.meta).toEqual({ page: 1, limit: 4, total: 6 });
    expect(first.data.map((x: any) => x.title)).toEqual(['A', 'B', 'C', 'D']);
    const second = await list({ limit: '4', page: '2', sort: 'createdAt', order: 'asc' });
    expect(second.meta).toEqual({ page: 2, limit: 4, total: 6 });
    expect(second.data.map((x: any) => x.title)).toEqual(['E', 'F']);
    const beyond = await list({ limit: '4', page: '5' });
    expect(beyond).toEqual({ data: [], meta: { page: 5, limit: 4, total: 6 } });
    const filtered = await list({ label: 'bug', limit: '1' });
    expect(filtered.meta.total).toBe(3);
    expect(filtered.data).toHaveLength(1);
  });
});

describe('labels', () => {
  it('lists labels in use with counts, merging case variants under the most used spelling', async () => {
    const res = await t.request({ url: '/api/v1/labels', token: member.token, query: { workspaceId: ws.id } });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      { name: 'bug', count: 3 },
      { name: 'UI', count: 2 },
    ]);
    const inSpace = await t.request({ url: '/api/labels', token: member.token, query: { workspaceId: ws.id, spaceId: space.id } });
    expect(inSpace.body.data).toEqual([
      { name: 'UI', count: 2 },
      { name: 'Bug', count: 1 },
    ]);
    const missing = await t.request({ url: '/api/v1/labels', token: member.token });
    expect(missing.status).toBe(400);
  });
});

describe('triage', () => {
  it('sets and clears the bucket through PUT', async () => {
    const task = await createTask(t, owner, ws.id, { title: 'G' });
    const set = await t.request({ method: 'PUT', url: `/api/v1/tasks/${task.id}`, token: owner.token, body: { bucket: 'next' } });
    expect(set.body.data.bucket).toBe('next');
    const summary = await t.request({ url: '/api/v1/tasks/triage-summary', token: owner.token, query: { workspaceId: ws.id } });
    expect(summary.body).toEqual({ data: { now: 2, next: 2, later: 1, none: 1 } });
    const cleared = await t.request({ method: 'PUT', url: `/api/v1/tasks/${task.id}`, token: owner.token, body: { bucket: null } });
    expect(cleared.body.data.bucket).toBeNull();
    const after = await t.request({ url: '/api/v1/tasks/triage-summary', token: owner.token, query: { workspaceId: ws.id } });
    expect(after.body.data).toEqual({ now: 2, next: 1, later: 1, none: 2 });
    await t.request({ method: 'DELETE', url: `/api/v1/tasks/${task.id}`, token: owner.token });
  });

  it('counts open tasks per bucket for the workspace in context, optionally per space', async () => {
    // A (now), B (next), C (none), D done (not counted), E (later), F (now)
    const expected = { now: 2, next: 1, later: 1, none: 1 };
    const byQuery = await t.request({ url: '/api/v1/tasks/triage-summary', token: member.token, query: { workspaceId: ws.id } });
    expect(byQuery.status).toBe(200);
    expect(byQuery.body).toEqual({ data: expected });
    const byHeader = await t.request({ url: '/api/tasks/triage-summary', token: member.token, headers: { 'x-workspace-id': ws.id } });
    expect(byHeader.body).toEqual({ data: expected });
    // The member's only workspace.
    const implicit = await t.request({ url: '/api/v1/tasks/triage-summary', token: member.token });
    expect(implicit.body).toEqual({ data: expected });
    const inSpace = await t.request({ url: '/api/v1/tasks/triage-summary', token: member.token, query: { workspaceId: ws.id, spaceId: space.id } });
    expect(inSpace.body).toEqual({ data: { now: 1, next: 0, later: 0, none: 1 } });

    // Several workspaces and none named: 400.
    await createWorkspace(t, owner, 'Second');
    const ambiguous = await t.request({ url: '/api/v1/tasks/triage-summary', token: owner.token });
    expect(ambiguous.status).toBe(400);
    expect(ambiguous.body.error.code).toBe('MISSING_REQUIRED');

    const empty = await createUser(t, 'Empty');
    const emptyWs = await createWorkspace(t, empty);
    const zero = await t.request({ url: '/api/v1/tasks/triage-summary', token: empty.token });
    expect(zero.body).toEqual({ data: { now: 0, next: 0, later: 0, none: 0 } });
    expect((await t.request({ url: '/api/v1/tasks/triage-summary', token: empty.token, headers: { 'x-workspace-id': ws.id } })).status).toBe(403);
    expect(emptyWs.id).toBeTruthy();
  });
});
