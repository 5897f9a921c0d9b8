import type { TestApp } from '../helpers/app.js';
import type { TestUser } from '../helpers/factories.js';

export async function createSpace(
  t: TestApp,
  admin: TestUser,
  workspaceId: string,
  body: { name?: string; slug?: string; visibility?: 'public' | 'private'; description?: string; icon?: string } = {},
) {
  const res = await t.request({ method: 'POST', url: '/api/v1/spaces', token: admin.token, body: { workspaceId, name: 'Space', ...body } });
  if (res.status !== 201) throw new Error(`space failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data as { id: string; slug: string; workspaceId: string; visibility: string };
}

export async function createGroup(t: TestApp, admin: TestUser, workspaceId: string, name: string, userIds: string[] = []) {
  const res = await t.request({ method: 'POST', url: '/api/v1/groups', token: admin.token, body: { workspaceId, name } });
  if (res.status !== 201) throw new Error(`group failed: ${res.status} ${JSON.stringify(res.body)}`);
  const id = res.body.data.id as string;
  if (userIds.length) {
    const added = await t.request({ method: 'POST', url: `/api/v1/groups/${id}/members`, token: admin.token, body: { userIds } });
    if (added.status !== 201) throw new Error(`group members failed: ${added.status} ${JSON.stringify(added.body)}`);
  }
  return id;
}

export async function addSpaceMembers(
  t: TestApp,
  admin: TestUser,
  workspaceId: string,
  spaceId: string,
  body: { userIds?: string[]; groupIds?: string[]; role: 'admin' | 'editor' | 'viewer' },
) {
  const res = await t.request({ method: 'POST', url: `/api/v1/spaces/${spaceId}/members`, token: admin.token, body: { workspaceId, ...body } });
  if (res.status !== 201) throw new Error(`space members failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** Creates a page over HTTP (the pages area) with an empty document. */
export async function createPage(t: TestApp, user: TestUser, workspaceId: string, spaceId: string, title = 'Page', parentId?: string) {
  const res = await t.request({
    method: 'POST',
    url: '/api/v1/pages',
    token: user.token,
    body: { workspaceId, spaceId, title, content: { type: 'doc', content: [{ type: 'paragraph' }] }, ...(parentId ? { parentId } : {}) },
  });
  if (res.status !== 201) throw new Error(`page failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data as { id: string; spaceId: string; workspaceId: string };
}
