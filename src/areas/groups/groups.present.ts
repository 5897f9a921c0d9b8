interface GroupRecord {
  id: string;
  workspaceId: string;
  name: string;
  description: string | null;
  memberCount: number;
  createdBy: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export function presentGroup(row: GroupRecord) {
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    name: row.name,
    description: row.description,
    memberCount: row.memberCount,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function presentGroupMember(row: { id: string; name: string; email: string; avatarUrl: string | null; addedAt: Date }) {
  return { id: row.id, name: row.name, email: row.email, avatarUrl: row.avatarUrl, addedAt: row.addedAt.toISOString() };
}
