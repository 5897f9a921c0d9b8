import { newId } from '../../src/ids.js';
import type { TestApp } from '../helpers/app.js';
import type { TestUser } from '../helpers/factories.js';

export async function createTask(t: TestApp, user: TestUser, workspaceId: string, body: Record<string, unknown> = {}) {
  const res = await t.request({ method: 'POST', url: '/api/v1/tasks', token: user.token, body: { workspaceId, title: 'A task', ...body } });
  if (res.status !== 201) throw new Error(`task failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

export async function createProject(t: TestApp, user: TestUser, workspaceId: string, body: Record<string, unknown> = {}) {
  const res = await t.request({ method: 'POST', url: '/api/v1/projects', token: user.token, body: { workspaceId, name: 'A project', ...body } });
  if (res.status !== 201) throw new Error(`project failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/**
 * A space, over HTTP when the spaces routes are served; else (spaces area not yet wired) straight into the table,
 * with the creator as space admin as the spaces area does.
 */
export async function createSpace(t: TestApp, admin: TestUser, workspaceId: string, visibility: 'public' | 'private' = 'public') {
  const name = `Space ${newId().slice(-6)}`;
  const res = await t.request({ method: 'POST', url: '/api/v1/spaces', token: admin.token, body: { workspaceId, name, visibility } });
  if (res.status === 201) return { id: res.body.data.id as string };
  if (res.status !== 404) throw new Error(`space failed: ${res.status} ${JSON.stringify(res.body)}`);
  const id = newId();
  await t.database.db
    .insertInto('spaces')
    .values({ id, workspaceId, name, slug: `s-${id.slice(-8)}`, visibility, createdBy: admin.id })
    .execute();
  return { id };
}

/** Gives `user` a role in the space, over HTTP when served, else straight into the table. */
export async function addSpaceMember(t: TestApp, admin: TestUser, workspaceId: string, spaceId: string, user: TestUser, role: 'admin' | 'editor' | 'viewer') {
  const res = await t.request({
    method: 'POST',
    url: `/api/v1/spaces/${spaceId}/members`,
    token: admin.token,
    body: { workspaceId, userIds: [user.id], role },
  });
  if (res.status === 200 || res.status === 201) return;
  if (res.status !== 404) throw new Error(`space member failed: ${res.status} ${JSON.stringify(res.body)}`);
  await t.database.db.insertInto('spaceMembers').values({ id: newId(), spaceId, workspaceId, userId: user.id, role, addedBy: admin.id }).execute();
}
