import { randomUUID } from 'node:crypto';
import type { TestApp } from '../helpers/app.js';
import { type TestUser, workspaceWithRoles } from '../helpers/factories.js';
import { createPage, createSpace } from '../spaces/helpers.js';

export async function allowPublicPages(t: TestApp, admin: TestUser, workspaceId: string, allow: boolean) {
  const res = await t.request({ method: 'PUT', url: `/api/v1/workspaces/${workspaceId}`, token: admin.token, body: { settings: { allowPublicPages: allow } } });
  if (res.status !== 200) throw new Error(`settings failed: ${res.status} ${JSON.stringify(res.body)}`);
}

export function publish(t: TestApp, user: TestUser, pageId: string, body: { includeSubtree?: boolean; allowIndexing?: boolean; newLink?: boolean } = {}) {
  return t.request({ method: 'POST', url: `/api/v1/pages/${pageId}/share`, token: user.token, body });
}

/** The token at the end of a share's URL. */
export const tokenOf = (url: string) => url.split('/s/')[1];

/** Reads a share as a visitor: no credentials at all. */
export function visit(t: TestApp, path: string) {
  return t.request({ url: `/api/v1/public/shares/${path}` });
}

/** A workspace that allows public pages, with a space and a page written by the editor. */
export async function sharedSetup(t: TestApp) {
  const roles = await workspaceWithRoles(t);
  await allowPublicPages(t, roles.admin, roles.workspace.id, true);
  const space = await createSpace(t, roles.admin, roles.workspace.id, { name: 'Handbook' });
  const page = await createPage(t, roles.editor, roles.workspace.id, space.id, 'Welcome');
  return { ...roles, space, page };
}

/**
 * Restricts a page (and so its subtree) the way the restrictions area stores it: its own row, one per page under it,
 * and an editor grant for each of `editors`.
 */
export async function restrict(t: TestApp, workspaceId: string, pageId: string, subtree: string[] = [], editors: TestUser[] = []) {
  const db = t.database.db;
  await db.insertInto('pageRestrictions').values({ pageId, workspaceId }).execute();
  for (const user of editors)
    await db.insertInto('pageRestrictionGrants').values({ id: randomUUID(), pageId, workspaceId, userId: user.id, groupId: null, role: 'editor' }).execute();
  await db
    .insertInto('pageRestrictedBy')
    .values([pageId, ...subtree].map((id) => ({ pageId: id, restrictionPageId: pageId, workspaceId })))
    .execute();
}
