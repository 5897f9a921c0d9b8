import type { Role } from '../workspaces/workspaces.policy.js';

interface SpaceRecord {
  id: string;
  workspaceId: string;
  name: string;
  slug: string;
  description: string | null;
  icon: string | null;
  visibility: 'public' | 'private';
  createdBy: string | null;
  createdAt: Date;
  updatedAt: Date;
  pageCount: number;
  memberCount?: number;
}

export function presentSpace(row: SpaceRecord) {
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    name: row.name,
    slug: row.slug,
    description: row.description,
    icon: row.icon,
    visibility: row.visibility,
    pageCount: row.pageCount,
    ...(row.memberCount === undefined ? {} : { memberCount: row.memberCount }),
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const RANK: Record<Role, number> = { viewer: 1, editor: 2, admin: 3 };

interface Grant {
  id: string;
  name: string;
  email: string;
  avatarUrl: string | null;
  role: string;
  addedAt: Date;
  groupId: string | null;
}

/** One entry per user from their grants (direct and through groups): the highest role wins. */
export function presentSpaceMembers(grants: Grant[]) {
  const byUser = new Map<string, { grant: Grant; role: Role; directRole: Role | null; groupIds: string[]; addedAt: Date }>();
  for (const g of grants) {
    const role = g.role as Role;
    const entry = byUser.get(g.id) ?? { grant: g, role, directRole: null, groupIds: [], addedAt: g.addedAt };
    if (RANK[role] > RANK[entry.role]) entry.role = role;
    if (g.groupId === null) entry.directRole = role;
    else entry.groupIds.push(g.groupId);
    if (g.addedAt < entry.addedAt) entry.addedAt = g.addedAt;
    byUser.set(g.id, entry);
  }
  return [...byUser.values()].map(({ grant, role, directRole, groupIds, addedAt }) => ({
    id: grant.id,
    name: grant.name,
    email: grant.email,
    avatarUrl: grant.avatarUrl,
    role,
    via: directRole ? ('direct' as const) : ('group' as const),
    directRole,
    groupIds,
    addedAt: addedAt.toISOString(),
  }));
}

export function presentPermission(row: {
  spaceId: string;
  userId: string | null;
  groupId: string | null;
  role: string;
  addedAt: Date;
  userName: string | null;
  groupName: string | null;
}) {
  return {
    spaceId: row.spaceId,
    targetId: (row.userId ?? row.groupId) as string,
    isGroup: row.groupId !== null,
    name: (row.groupId !== null ? row.groupName : row.userName) ?? '',
    role: row.role as Role,
    addedAt: row.addedAt.toISOString(),
  };
}
