import { randomUUID } from 'node:crypto';
import type { TestApp } from './app.js';

export interface TestUser {
  id: string;
  email: string;
  name: string;
  token: string;
}

/** Signs up a user over HTTP and returns them with their JWT. */
export async function createUser(t: TestApp, name = 'User'): Promise<TestUser> {
  const email = `${name.toLowerCase().replace(/\W+/g, '')}-${randomUUID().slice(0, 8)}@example.com`;
  const res = await t.request({ method: 'POST', url: '/api/v1/auth/signup', body: { email, password: 'correct-horse', name } });
  if (res.status !== 201) throw new Error(`signup failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.data.user.id, email, name, token: res.body.data.token };
}

export async function createApiKey(t: TestApp, user: TestUser, name = 'key'): Promise<string> {
  const res = await t.request({ method: 'POST', url: '/api/v1/api-keys', token: user.token, body: { name } });
  if (res.status !== 201) throw new Error(`key failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.key;
}

export async function createWorkspace(t: TestApp, owner: TestUser, name = 'Acme'): Promise<{ id: string; hostname: string }> {
  const hostname = `ws-${randomUUID().slice(0, 8)}`;
  const res = await t.request({ method: 'POST', url: '/api/v1/workspaces', token: owner.token, body: { name, hostname } });
  if (res.status !== 201) throw new Error(`workspace failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.data.id, hostname };
}

export async function addMember(t: TestApp, workspaceId: string, admin: TestUser, user: TestUser, role: 'admin' | 'editor' | 'viewer') {
  const res = await t.request({ method: 'POST', url: `/api/v1/workspaces/${workspaceId}/members`, token: admin.token, body: { userId: user.id, role } });
  if (res.status !== 201) throw new Error(`add member failed: ${res.status} ${JSON.stringify(res.body)}`);
}

/** A workspace with an admin, an editor, a viewer and an outsider (not a member). */
export async function workspaceWithRoles(t: TestApp) {
  const [admin, editor, viewer, outsider] = await Promise.all([
    createUser(t, 'Admin'),
    createUser(t, 'Editor'),
    createUser(t, 'Viewer'),
    createUser(t, 'Outsider'),
  ]);
  const workspace = await createWorkspace(t, admin);
  await addMember(t, workspace.id, admin, editor, 'editor');
  await addMember(t, workspace.id, admin, viewer, 'viewer');
  return { workspace, admin, editor, viewer, outsider };
}
