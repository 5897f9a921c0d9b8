import type { ColumnType, Generated, Selectable } from 'kysely';

/** Table types as Kysely sees them (camelCase; the CamelCasePlugin maps to snake_case columns). */
type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type UpdatedAt = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T = Record<string, unknown>> = ColumnType<T, string, string>;

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

export interface JobTable {
  id: string;
  workspaceId: string | null;
  kind: string;
  payload: Json;
  status: Generated<'queued' | 'running' | 'done' | 'failed' | 'cancelled'>;
  attempts: Generated<number>;
  maxAttempts: Generated<number>;
  runAt: ColumnType<Date, Date | string | undefined, Date | string>;
  leaseUntil: Date | null;
  lastError: string | null;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
}

export interface DB {
  users: UserTable;
  apiKeys: ApiKeyTable;
  workspaces: WorkspaceTable;
  workspaceMembers: WorkspaceMemberTable;
}

export type UserRow = Selectable<UserTable>;
export type WorkspaceRow = Selectable<WorkspaceTable>;
export type ApiKeyRow = Selectable<ApiKeyTable>;
