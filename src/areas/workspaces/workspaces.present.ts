import type { Role } from './workspaces.policy.js';

interface WorkspaceRecord {
  id: string;
  name: string;
  hostname: string;
  description: string | null;
  logoUrl: string | null;
  settings: Record<string, unknown>;
  createdAt: Date;
  updatedAt: Date;
  memberCount: number;
}

export const DEFAULT_SETTINGS = { defaultRole: 'editor' as Role, allowPublicPages: false };

export function presentSettings(settings: Record<string, unknown>) {
  return {
    defaultRole: (settings.defaultRole as Role | undefined) ?? DEFAULT_SETTINGS.defaultRole,
    allowPublicPages: (settings.allowPublicPages as boolean | undefined) ?? DEFAULT_SETTINGS.allowPublicPages,
  };
}

export function presentWorkspace(row: WorkspaceRecord, role?: Role) {
  return {
    id: row.id,
    name: row.name,
    hostname: row.hostname,
    logoUrl: row.logoUrl,
    description: row.description,
    settings: presentSettings(row.settings),
    memberCount: row.memberCount,
    ...(role ? { role } : {}),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function presentMember(row: { id: string; email: string; name: string; avatarUrl: string | null; role: string; joinedAt: Date }) {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    avatarUrl: row.avatarUrl,
    role: row.role as Role,
    joinedAt: row.joinedAt.toISOString(),
  };
}
