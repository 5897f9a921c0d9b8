import { randomUUID } from 'node:crypto';
import { addMemberNow } from '../../src/areas/workspaces/workspaces.service.js';
import { memberRole } from '../../src/areas/workspaces/workspaces.policy.js';
import type { TestApp } from './app.js';

export interface TestUser {
  id: string;
  email: string;
  name: string;
  token: string;
}

/** The password every user made by createUser signs in with. */
export const USER_PASSWORD = 'correct-horse';

/** Signs up a user over HTTP and returns them with their JWT. */
export async function createUser(t: TestApp, name = 'User'): Promise<TestUser> {
  const email = `${name.toLowerCase().replace(/\W+/g, '')}-${randomUUID().slice(0, 8)}@example.com`;
  const res = await t.request({ method: 'POST', url: '/api/v1/auth/signup', body: { email, password: USER_PASSWORD, name } });
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

/**
 * Makes `user` a member at once, as `admin` (who must be an admin of the workspace): the service's own direct add, with
 * its audit entry and `member.joined` event. Not the API, where adding an account invites it and its holder accepts
 * (test/invitations/member-add.test.ts): a factory builds the workspaces other tests start from. Against service
 * processes reached over HTTP only (test/instances), it goes the API's way: the admin invites, the user accepts.
 */
export async function addMember(t: TestApp, workspaceId: string, admin: TestUser, user: TestUser, role: 'admin' | 'editor' | 'viewer') {
  if (!t.database) return joinByInvitation(t, workspaceId, admin.token, user, role);
  const db = t.database.db;
  if ((await memberRole(db, workspaceId, admin.id)).role !== 'admin') throw new Error(`add member failed: ${admin.name} is not an admin of ${workspaceId}`);
  await addMemberNow({ db, actor: { userId: admin.id, via: 'jwt', apiKeyId: null }, log: t.app.log }, workspaceId, user, role);
}

/** Makes `user` a member over HTTP, the way people do it: the admin adds them by user id, which invites them, and they accept with their own token. */
export async function joinByInvitation(
  t: Pick<TestApp, 'request'>,
  workspaceId: string,
  adminToken: string,
  user: { id: string; token: string },
  role: 'admin' | 'editor' | 'viewer',
) {
  const invited = await t.request({ method: 'POST', url: `/api/v1/workspaces/${workspaceId}/members`, token: adminToken, body: { userId: user.id, role } });
  if (invited.status !== 202) throw new Error(`add member failed: ${invited.status} ${JSON.stringify(invited.body)}`);
  const url = `/api/v1/users/me/invitations/${invited.body.data.invitation.id}/accept`;
  const accepted = await t.request({ method: 'POST', url, token: user.token });
  if (accepted.status !== 200) throw new Error(`accepting failed: ${accepted.status} ${JSON.stringify(accepted.body)}`);
}

/** Marks the user's email verified, as a verification link or a provider's word would (test/auth/email-verification.test.ts covers those). */
export async function verifyEmail(t: TestApp, user: TestUser): Promise<void> {
  await t.database.db.updateTable('users').set({ emailVerifiedAt: new Date() }).where('id', '=', user.id).execute();
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
