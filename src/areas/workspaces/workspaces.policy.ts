import { sql } from 'kysely';
import { type Ctx, requireActor } from '../../context.js';
import { compiledOnce } from '../../db/compiled.js';
import type { Db } from '../../db/index.js';
import { forbidden, notFound } from '../../errors.js';
import { asMemberScope, type MemberScope, memberScope, withinKeyScopeSql } from './member-scope.js';

export { type MemberScope, memberScope } from './member-scope.js';

/** Roles, weakest first: viewer reads; editor also writes content; admin also manages members, spaces and settings. */
export const ROLES = ['viewer', 'editor', 'admin'] as const;
export type Role = (typeof ROLES)[number];

const RANK: Record<Role, number> = { viewer: 1, editor: 2, admin: 3 };

export function roleAtLeast(role: Role | null | undefined, min: Role): boolean {
  return role != null && RANK[role] >= RANK[min];
}

const VERB: Record<Role, string> = { viewer: 'read', editor: 'write', admin: 'administer' };

/** 404 when the workspace does not exist, 403 when the actor is not a member or their role is below `min`. */
export function assertWorkspaceRole(role: Role | null | undefined, min: Role, workspaceId: string): asserts role is Role {
  if (!role) throw forbidden('You are not a member of this workspace', { workspaceId });
  if (!roleAtLeast(role, min))
    throw forbidden(`Your role (${role}) cannot ${VERB[min]} in this workspace; ${min} is needed`, { workspaceId, role, required: min });
}

/** Whether the workspace exists and the user's role in it (none outside their key's workspace); on every workspace-scoped request's path. */
const findMemberRole = compiledOnce((db: Db, workspaceId: string, userId: string, keyWorkspaceId: string | null) =>
  db
    .selectFrom('workspaces as w')
    .leftJoin('workspaceMembers as m', (j) =>
      j
        .onRef('m.workspaceId', '=', 'w.id')
        .on('m.userId', '=', userId)
        .on(withinKeyScopeSql(sql.ref('m.workspace_id'), keyWorkspaceId)),
    )
    .select(['w.id', 'm.role'])
    .where('w.id', '=', workspaceId),
);

/** The member's role in the workspace; `member` is a bare user id (all their memberships) or an actor's scope. */
export async function memberRole(db: Db, workspaceId: string, member: string | MemberScope): Promise<{ exists: boolean; role: Role | null }> {
  const { userId, keyWorkspaceId, withoutAdmin } = asMemberScope(member);
  const [row] = await findMemberRole(db, workspaceId, userId, keyWorkspaceId);
  const role = (row?.role as Role | null) ?? null;
  return { exists: !!row, role: withoutAdmin && role === 'admin' ? 'editor' : role };
}

/** The one question every area asks first: may the actor act with at least `min` in this workspace? Returns their role. */
export async function requireWorkspaceRole(ctx: Ctx, workspaceId: string, min: Role): Promise<Role> {
  const actor = requireActor(ctx);
  const { exists, role } = await memberRole(ctx.db, workspaceId, memberScope(actor));
  if (!exists) throw notFound('Workspace', workspaceId);
  assertWorkspaceRole(role, min, workspaceId);
  return role;
}

/** Workspaces the member belongs to, within their key's scope (for the "only workspace" fallback of the workspace context). */
export function workspaceIdsOf(db: Db, member: string | MemberScope, limit = 2) {
  const { userId, keyWorkspaceId } = asMemberScope(member);
  return db
    .selectFrom('workspaceMembers')
    .select('workspaceId')
    .where('userId', '=', userId)
    .where(withinKeyScopeSql(sql.ref('workspace_id'), keyWorkspaceId))
    .orderBy(sql`joined_at`)
    .limit(limit)
    .execute();
}
