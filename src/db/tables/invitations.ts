import type { ColumnType } from 'kysely';
import type { CreatedAt } from '../types.js';

export type InvitationRole = 'viewer' | 'editor' | 'admin';

/** An invitation to a workspace by email: a one-time link (only its hash is stored), open until accepted, revoked or expired. */
export interface InvitationTable {
  id: string;
  workspaceId: string;
  /** Lower case, trimmed. */
  email: string;
  role: InvitationRole;
  /** sha256 (hex) of the link's token. */
  tokenHash: string;
  invitedBy: string;
  createdAt: CreatedAt;
  expiresAt: ColumnType<Date, Date | string | undefined, Date | string>;
  acceptedAt: Date | null;
  acceptedBy: string | null;
  revokedAt: Date | null;
  /** The existing account invited (an add by user id, which its holder accepts); null: whoever holds the email. */
  userId: ColumnType<string | null, string | null | undefined, string | null>;
  /** Set, with `revokedAt`, when the invited person declined. */
  declinedAt: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export interface InvitationsTables {
  invitations: InvitationTable;
}
