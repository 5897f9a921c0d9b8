import type { ColumnType, Selectable } from 'kysely';
import type { AttachmentsTables } from './tables/attachments.js';
import type { AuditTables } from './tables/audit.js';
import type { AuthTables } from './tables/auth.js';
import type { BugReportsTables } from './tables/bug-reports.js';
import type { CommentsTables } from './tables/comments.js';
import type { EventsTables } from './tables/events.js';
import type { ExportsTables } from './tables/exports.js';
import type { GoalsTables } from './tables/goals.js';
import type { IdentitiesTables } from './tables/identities.js';
import type { ImportsTables } from './tables/imports.js';
import type { InvitationsTables } from './tables/invitations.js';
import type { JobTables } from './tables/jobs.js';
import type { LocalSyncTables } from './tables/local-sync.js';
import type { MemoryTables } from './tables/memory.js';
import type { NotificationsTables } from './tables/notifications.js';
import type { OAuthTables } from './tables/oauth.js';
import type { PageRestrictionTables, PagesTables } from './tables/pages.js';
import type { PersonalPagesTables } from './tables/personal.js';
import type { ResearchTables } from './tables/research.js';
import type { SharesTables } from './tables/shares.js';
import type { SpacesTables } from './tables/spaces.js';
import type { TasksTables } from './tables/tasks.js';
import type { TemplatesTables } from './tables/templates.js';
import type { WebhooksTables } from './tables/webhooks.js';

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
  /** When kb learned the holder reads the email's mailbox (migration 0036); null: unverified. */
  emailVerifiedAt: ColumnType<Date | null, Date | null | undefined, Date | null>;
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
  /** What the key may do: read only, or read and write (the default). */
  access: ColumnType<ApiKeyAccess, ApiKeyAccess | undefined, ApiKeyAccess>;
  /** After this the key is refused (401 TOKEN_EXPIRED); null: never. */
  expiresAt: Date | null;
  /** The one workspace the key may act in; null: all of its user's workspaces. */
  workspaceId: ColumnType<string | null, string | null | undefined, string | null>;
}

export type ApiKeyAccess = 'read-only' | 'read-write';

export interface WorkspaceTable {
  id: string;
  name: string;
  hostname: string;
  description: string | null;
  logoUrl: string | null;
  settings: Json;
  /** Kept by a trigger on `workspace_members` (migration 0013); never written by the service. */
  memberCount: ColumnType<number, never, never>;
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
export interface DB
  extends FoundationTables,
    JobTables,
    PagesTables,
    SpacesTables,
    TasksTables,
    GoalsTables,
    TemplatesTables,
    CommentsTables,
    AttachmentsTables,
    ResearchTables,
    BugReportsTables,
    LocalSyncTables,
    MemoryTables,
    ExportsTables,
    ImportsTables,
    AuditTables,
    IdentitiesTables,
    InvitationsTables,
    PageRestrictionTables,
    SharesTables,
    AuthTables,
    EventsTables,
    NotificationsTables,
    WebhooksTables,
    OAuthTables,
    PersonalPagesTables {}

export type UserRow = Selectable<UserTable>;
export type WorkspaceRow = Selectable<WorkspaceTable>;
export type ApiKeyRow = Selectable<ApiKeyTable>;
