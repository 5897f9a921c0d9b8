import type { ColumnType } from 'kysely';
import type { CreatedAt } from '../types.js';

/** How a session was started. */
export type SessionVia = 'password' | 'oidc' | 'invitation' | 'reset' | 'signup';

/** A signed-in session: its JWT carries `id` as the `sid` claim, and is refused once the row is revoked or expired. */
export interface SessionTable {
  id: string;
  userId: string;
  via: SessionVia;
  createdAt: CreatedAt;
  /** Last request made with it, to the minute. */
  lastSeenAt: ColumnType<Date, Date | undefined, Date>;
  expiresAt: Date;
  revokedAt: Date | null;
  userAgent: string | null;
  /** The address it was started from, and the latest one it was used from. */
  firstAddress: string | null;
  lastAddress: string | null;
}

/** A one-time password-reset link made by a workspace admin: only its token's sha256 is kept. */
export interface PasswordResetLinkTable {
  id: string;
  userId: string;
  /** The workspace whose admin made it. */
  workspaceId: string | null;
  createdBy: string | null;
  tokenHash: string;
  createdAt: CreatedAt;
  expiresAt: Date;
  usedAt: Date | null;
  /** Set when a newer link for the same user replaced it. */
  voidedAt: Date | null;
}

/** A one-time link that proves the account's holder reads its mailbox (`POST /auth/verify-email`): only its token's sha256 is kept. */
export interface EmailVerificationTable {
  id: string;
  userId: string;
  /** The address the link was mailed to: it verifies the account only while the account still has this email. */
  email: string;
  tokenHash: string;
  createdAt: CreatedAt;
  expiresAt: Date;
  usedAt: Date | null;
}

export interface AuthTables {
  sessions: SessionTable;
  passwordResetLinks: PasswordResetLinkTable;
  emailVerifications: EmailVerificationTable;
}
