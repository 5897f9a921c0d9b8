import type { z } from 'zod';
import { publicUrlOf } from '../../config.js';
import { type Ctx, requireActor } from '../../context.js';
import { isUniqueViolation } from '../../db/index.js';
import type { Db } from '../../db/index.js';
import { AppError, alreadyExists, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import { mailerOf, mailFailureReason } from '../../mail/mailer.js';
import { invitationMail } from '../../mail/templates.js';
import { recordAudit } from '../audit/audit.record.js';
import { assertUnderHourlyLimit, HOUR_MS } from '../auth/hourly-limit.js';
import { hashApiKey, newLinkToken } from '../auth/tokens.js';
import { usersRepo } from '../users/users.repo.js';
import { type Role, requireWorkspaceRole } from '../workspaces/workspaces.policy.js';
import { presentInvitation } from './invitations.present.js';
import { type InvitationRow, invitationsRepo } from './invitations.repo.js';
import type { InvitationCreateBody } from './invitations.schema.js';

/** How long a link works. */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** Where a link leads: the web app's invitation screen. */
export const invitationUrl = (ctx: Ctx, token: string) => `${publicUrlOf(ctx.env.config)}/invite/${token}`;

/**
 * Invites an address (workspace admin). Inviting it again revokes the open invitation and makes a new link. The link
 * is answered here only; with SMTP_URL set it is mailed too, after the commit, and a failed mail leaves the invitation in place.
 */
export async function createInvitation(ctx: Ctx, workspaceId: string, input: z.infer<typeof InvitationCreateBody>) {
  await requireWorkspaceRole(ctx, workspaceId, 'admin');
  const email = input.email.toLowerCase();
  if (await invitationsRepo.isMemberByEmail(ctx.db, workspaceId, email)) throw alreadyExists(`${email} is already a member of this workspace`, 'email');
  return invite(ctx, workspaceId, { email, role: input.role, userId: null });
}

/**
 * Invites an existing account (an admin adding it by user id, workspaces.service): only that account may accept, from
 * its list of invitations (`GET /users/me/invitations`) or the link. The caller has checked the admin role and that
 * the account is no member yet.
 */
export function inviteAccount(ctx: Ctx, workspaceId: string, account: { id: string; email: string }, role: Role) {
  return invite(ctx, workspaceId, { email: account.email.toLowerCase(), role, userId: account.id });
}

/** Makes the invitation within the hourly limits (one transaction with its audit entries), then mails it when it may. */
async function invite(ctx: Ctx, workspaceId: string, target: { email: string; role: Role; userId: string | null }) {
  const actor = requireActor(ctx);
  const { email, role, userId } = target;
  const token = newLinkToken();
  const id = newId();
  const now = ctx.now();
  try {
    await ctx.db.transaction().execute(async (trx) => {
      await assertInvitationAllowance(trx, ctx, actor.userId, workspaceId, now);
      const replaced = await invitationsRepo.revokeOpenForEmail(trx, workspaceId, email, now);
      await invitationsRepo.insert(trx, {
        id,
        workspaceId,
        email,
        role,
        userId,
        tokenHash: hashApiKey(token),
        invitedBy: actor.userId,
        expiresAt: new Date(now.getTime() + INVITATION_TTL_MS),
      });
      for (const old of replaced)
        await recordAudit(trx, ctx, { workspaceId, action: 'invitation.revoked', targetType: 'invitation', targetId: old, details: { email, replacedBy: id } });
      const details = { email, role, ...(userId ? { userId } : {}) };
      await recordAudit(trx, ctx, { workspaceId, action: 'invitation.created', targetType: 'invitation', targetId: id, details });
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw alreadyExists(`An invitation to ${email} is being made right now; try again`, 'email');
    throw err;
  }
  const row = await invitationsRepo.findInWorkspace(ctx.db, workspaceId, id);
  if (!row) throw notFound('Invitation', id);
  const url = invitationUrl(ctx, token);
  return { invitation: presentInvitation(row, now), url, ...(await mailInvitation(ctx, row, url)) };
}

/** Invitations mail strangers with the inviter's words in them: so many an hour per inviter and per workspace (429 beyond). */
async function assertInvitationAllowance(trx: Db, ctx: Ctx, inviterId: string, workspaceId: string, now: Date) {
  const { config } = ctx.env;
  const used = await invitationsRepo.lockAndCountSince(trx, inviterId, workspaceId, new Date(now.getTime() - HOUR_MS));
  assertUnderHourlyLimit(used.byInviter, config.INVITATIONS_PER_USER_PER_HOUR, now, {
    message: 'You have made too many invitations',
    reason: 'too_many_invitations',
  });
  assertUnderHourlyLimit(used.inWorkspace, config.INVITATIONS_PER_WORKSPACE_PER_HOUR, now, {
    message: 'This workspace has sent too many invitations',
    reason: 'too_many_workspace_invitations',
  });
}

export const UNVERIFIED_INVITER =
  'Not mailed: invitations are mailed only for people whose own email kb has verified (POST /api/v1/auth/verify-email); pass the link on yourself';

/**
 * Mails the link when a mail server is configured and the inviter's own email is verified (an account anyone could
 * have made must not send mail in kb's name); a failure is logged and reported, never thrown.
 */
async function mailInvitation(ctx: Ctx, row: InvitationRow, url: string): Promise<{ mailed: boolean; mailError?: string }> {
  const mailer = mailerOf(ctx.env.config);
  if (!mailer) return { mailed: false };
  const inviter = await usersRepo.findById(ctx.db, row.invitedBy);
  if (!inviter?.emailVerifiedAt) return { mailed: false, mailError: UNVERIFIED_INVITER };
  try {
    const { email: to, inviterName, workspaceName, role, expiresAt } = row;
    await mailer.send(invitationMail({ to, inviterName: inviterName ?? 'Someone', workspaceName, role, url, expiresAt }));
    return { mailed: true };
  } catch (err) {
    const mailError = mailFailureReason(err);
    ctx.log.warn({ err, invitationId: row.id, workspaceId: row.workspaceId }, `invitation mail failed: ${mailError}`);
    return { mailed: false, mailError };
  }
}

export async function listInvitations(ctx: Ctx, workspaceId: string) {
  await requireWorkspaceRole(ctx, workspaceId, 'admin');
  const now = ctx.now();
  return (await invitationsRepo.listOpen(ctx.db, workspaceId)).map((row) => presentInvitation(row, now));
}

/** Withdraws an invitation (admin): its link dies at once. Revoking one already revoked is a no-op; an accepted one cannot be. */
export async function revokeInvitation(ctx: Ctx, workspaceId: string, id: string) {
  await requireWorkspaceRole(ctx, workspaceId, 'admin');
  await ctx.db.transaction().execute(async (trx) => {
    const row = await invitationsRepo.findInWorkspace(trx, workspaceId, id);
    if (!row) throw notFound('Invitation', id);
    if (row.acceptedAt)
      throw new AppError('ALREADY_EXISTS', 'This invitation was already accepted: remove the member instead', { field: 'id', reason: 'accepted' });
    if (row.revokedAt) return;
    await invitationsRepo.revoke(trx, workspaceId, id, ctx.now());
    await recordAudit(trx, ctx, {
      workspaceId,
      action: 'invitation.revoked',
      targetType: 'invitation',
      targetId: id,
      details: { email: row.email, role: row.role },
    });
  });
  return { id, deleted: true as const };
}
