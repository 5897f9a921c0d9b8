import type { Ctx } from '../../context.js';
import type { Db } from '../../db/index.js';
import type { Role } from '../../db/tables/spaces.js';
import { groupsRepo } from '../groups/groups.repo.js';
import { recordAudit } from './audit.record.js';

/**
 * Audit entries for changes that touch several targets at once (space grants, group members). Each is called
 * inside the transaction of the change, with the state before it where the entry says "from".
 */

/** A direct grant in a space: to a user or to a group. */
export interface SpaceGrant {
  userId: string | null;
  groupId: string | null;
  role: Role;
}

interface SpaceNamed {
  id: string;
  workspaceId: string;
  name: string;
}

const grantTarget = (g: SpaceGrant) => (g.userId ? { targetType: 'user' as const, targetId: g.userId } : { targetType: 'group' as const, targetId: g.groupId });
const grantKey = (g: SpaceGrant) => g.userId ?? g.groupId;

/** One entry per grant that is new (`space_member.added`) or changes role (`space_member.role_changed`); unchanged grants record nothing. */
export async function auditSpaceGrants(trx: Db, ctx: Ctx, space: SpaceNamed, before: SpaceGrant[], after: SpaceGrant[]) {
  const previous = new Map(before.map((g) => [grantKey(g), g.role]));
  for (const grant of after) {
    const from = previous.get(grantKey(grant));
    if (from === grant.role) continue;
    const where = { spaceId: space.id, spaceName: space.name };
    await recordAudit(trx, ctx, {
      workspaceId: space.workspaceId,
      ...grantTarget(grant),
      ...(from
        ? { action: 'space_member.role_changed', details: { ...where, from, to: grant.role } }
        : { action: 'space_member.added', details: { ...where, role: grant.role } }),
    });
  }
}

export async function auditSpaceGrantRemoved(trx: Db, ctx: Ctx, space: SpaceNamed, removed: SpaceGrant) {
  await recordAudit(trx, ctx, {
    workspaceId: space.workspaceId,
    action: 'space_member.removed',
    ...grantTarget(removed),
    details: { spaceId: space.id, spaceName: space.name, role: removed.role },
  });
}

/** One entry per user who actually joined or left the group. */
export async function auditGroupMembers(
  trx: Db,
  ctx: Ctx,
  workspaceId: string,
  groupId: string,
  action: 'group_member.added' | 'group_member.removed',
  userIds: string[],
) {
  if (!userIds.length) return;
  const group = await groupsRepo.find(trx, workspaceId, groupId);
  for (const userId of userIds)
    await recordAudit(trx, ctx, { workspaceId, action, targetType: 'user', targetId: userId, details: { groupId, groupName: group?.name ?? null } });
}
