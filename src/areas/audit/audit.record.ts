import type { Ctx } from '../../context.js';
import type { Db } from '../../db/index.js';
import { newId } from '../../ids.js';

/** Every kind of audit entry. Of account events (no workspace), only sign-ins made as a member are shown to a workspace's admins (audit.repo.ts). */
export const AUDIT_ACTIONS = [
  'auth.signin',
  'auth.signin_failed',
  'auth.signout',
  'auth.session_revoked',
  'auth.password_changed',
  'auth.password_reset_link_created',
  'auth.password_reset',
  'auth.unverified_account_claimed',
  'auth.email_verified',
  'api_key.created',
  'api_key.revoked',
  'member.added',
  'member.role_changed',
  'member.removed',
  'invitation.created',
  'invitation.revoked',
  'invitation.accepted',
  'invitation.declined',
  'space_member.added',
  'space_member.role_changed',
  'space_member.removed',
  'group_member.added',
  'group_member.removed',
  'page_restriction.set',
  'page_restriction.removed',
  'share.created',
  'share.updated',
  'share.revoked',
  'export.created',
  'webhook.created',
  'webhook.updated',
  'webhook.deleted',
  'webhook.secret_rotated',
  'oauth.app_connected',
  'oauth.app_disconnected',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export interface AuditEntry {
  /** Null for account events (sign-ins, sessions, API keys, passwords). */
  workspaceId: string | null;
  action: AuditAction;
  /** Who acted; defaults to the context's actor (null when nobody is signed in). */
  actorId?: string | null;
  targetType?: 'user' | 'member' | 'space' | 'group' | 'page' | 'share' | 'api_key' | 'session' | 'invitation' | 'export' | 'webhook' | 'oauth_connection' | null;
  targetId?: string | null;
  /** Small facts about the event (role from/to, email tried, reason); never secrets or content. */
  details?: Record<string, unknown>;
}

/**
 * Appends one audit entry. Call it inside the transaction of the change it records (pass the transaction as `db`),
 * so an entry exists exactly when the change does; a failed sign-in has no transaction and records on its own.
 */
export async function recordAudit(db: Db, ctx: Pick<Ctx, 'actor' | 'client'>, entry: AuditEntry): Promise<void> {
  await db
    .insertInto('auditLog')
    .values({
      id: newId(),
      workspaceId: entry.workspaceId,
      actorId: entry.actorId === undefined ? (ctx.actor?.userId ?? null) : entry.actorId,
      action: entry.action,
      targetType: entry.targetType ?? null,
      targetId: entry.targetId ?? null,
      details: JSON.stringify(entry.details ?? {}),
      address: ctx.client?.address ?? null,
      userAgent: ctx.client?.userAgent ?? null,
    })
    .execute();
}
