import type { ColumnType, Selectable } from 'kysely';

/** Table types as Kysely sees them (camelCase; the CamelCasePlugin maps to snake_case columns). */
export type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
export type UpdatedAt = ColumnType<Date, Date | string | undefined, Date | string>;
export type Json<T = Record<string, unknown>> = ColumnType<T, string, string>;

export interface UserTable {
  id: string;
  email: string;
  name: string;
  avatarUrl: string | null;
  passwordHash: string | null;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
}

export interface ApiKeyTable {
  id: string;
  userId: string;
  name: string;
  keyHash: string;
  keyPrefix: string;
  createdAt: CreatedAt;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

export interface WorkspaceTable {
  id: string;
  name: string;
  hostname: string;
  description: string | null;
  logoUrl: string | null;
  settings: Json;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
}

export interface WorkspaceMemberTable {
  workspaceId: string;
  userId: string;
  role: 'admin' | 'editor' | 'viewer';
  joinedAt: CreatedAt;
}

export interface FoundationTables {
  users: UserTable;
  apiKeys: ApiKeyTable;
  workspaces: WorkspaceTable;
  workspaceMembers: WorkspaceMemberTable;
}

/**
 * Every table. Each area declares its own tables in `src/db/tables/<area>.ts` (an interface `<Area>Tables`)
 * and adds it to this list.
 */
export interface DB extends FoundationTables {}

export type UserRow = Selectable<UserTable>;
export type WorkspaceRow = Selectable<WorkspaceTable>;
export type ApiKeyRow = Selectable<ApiKeyTable>;
