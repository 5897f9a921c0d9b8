import { sql } from 'kysely';
import { type Ctx, requireActor } from '../../context.js';
import { compiledOnce } from '../../db/compiled.js';
import type { Db } from '../../db/index.js';
import { forbidden, notFound } from '../../errors.js';
import { withinKeyScopeSql } from '../workspaces/member-scope.js';
import { type Role, roleAtLeast } from '../workspaces/workspaces.policy.js';
import { spaceRankSql } from './spaces.access.js';

/**
 * Roles inside a space: a workspace admin is admin in every space. Otherwise the caller's space role (direct, or
 * through a group; the highest wins) overrides their workspace role in that space. In a public space a workspace
 * member without a space role has their workspace role. A private space is visible only to its members and
 * workspace admins: to everyone else it does not exist.
 */

export interface SpaceRef {
  id: string;
  workspaceId: string;
  visibility: 'public' | 'private';
  name: string;
}

const ROLE_OF_RANK: Record<number, Role> = { 1: 'viewer', 2: 'editor', 3: 'admin' };

/** The effective role from the workspace role and the space rank; null when the space is invisible. */
export function effectiveSpaceRole(workspaceRole: Role | null, spaceRank: number | null, visibility: 'public' | 'private'): Role | null {
  if (!workspaceRole) return null;
  if (workspaceRole === 'admin') return 'admin';
  if (spaceRank) return ROLE_OF_RANK[spaceRank];
  return visibility === 'public' ? workspaceRole : null;
}

/** The caller's workspace role, the space and their rank in it, in one query; on every space-scoped request's path. */
const findSpaceAccess = compiledOnce((db: Db, workspaceId: string, spaceId: string, userId: string, keyWorkspaceId: string | null) =>
  db
    .selectFrom('workspaces as w')
    .leftJoin('workspaceMembers as wm', (j) =>
      j
        .onRef('wm.workspaceId', '=', 'w.id')
        .on('wm.userId', '=', userId)
        .on(withinKeyScopeSql(sql.ref('wm.workspace_id'), keyWorkspaceId)),
    )
    .leftJoin('spaces as s', (j) => j.onRef('s.workspaceId', '=', 'w.id').on('s.id', '=', spaceId))
    .select(['wm.role as workspaceRole', 's.id as spaceId', 's.visibility', 's.name', spaceRankSql(sql.ref('s.id'), workspaceId, userId).as('spaceRank')])
    .where('w.id', '=', workspaceId),
);

/**
 * 404 when the workspace or the space does not exist, the space is in another workspace, or it is private and
 * invisible to the caller; 403 when the caller is not a workspace member (whatever the space, so outsiders learn
 * nothing about spaces) or their effective role is below `min`. One query.
 */
export async function requireSpaceRole(ctx: Ctx, workspaceId: string, spaceId: string, min: Role): Promise<{ role: Role; space: SpaceRef }> {
  const actor = requireActor(ctx);
  const [row] = await findSpaceAccess(ctx.db, workspaceId, spaceId, actor.userId, actor.workspaceId ?? null);
  if (!row) throw notFound('Workspace', workspaceId);
  const workspaceRole = row.workspaceRole as Role | null;
  if (!workspaceRole) throw forbidden('You are not a member of this workspace', { workspaceId });
  if (!row.spaceId || !row.visibility || row.name === null) throw notFound('Space', spaceId);
  const role = effectiveSpaceRole(workspaceRole, row.spaceRank, row.visibility);
  if (!role) throw notFound('Space', spaceId);
  if (!roleAtLeast(role, min)) throw forbidden(`Your role in this space (${role}) is not enough; ${min} is needed`, { spaceId, role, required: min });
  return { role, space: { id: row.spaceId, workspaceId, visibility: row.visibility, name: row.name } };
}
