import type { z } from 'zod';
import { publicUrlOf } from '../../config.js';
import type { Ctx } from '../../context.js';
import { AppError, forbidden, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import { mailerOf } from '../../mail/mailer.js';
import { recordAudit } from '../audit/audit.record.js';
import { presentUser } from '../users/users.present.js';
import { usersRepo } from '../users/users.repo.js';
import { memberRole, requireWorkspaceRole } from '../workspaces/workspaces.policy.js';
import type { PasswordResetBody } from './auth.schema.js';
import { refusePasswordLoginWhenOidcOnly } from './auth.service.js';
import type { SessionCache } from './authenticator.js';
import { credentialsRepo } from './credentials.repo.js';
import { hashPassword } from './passwords.js';
import { requireSessionActor, startSession } from './sessions.js';
import { sessionsRepo } from './sessions.repo.js';
import { hashApiKey, newLinkToken } from './tokens.js';

/** How long a reset link works. */
export const RESET_LINK_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * A workspace admin makes a one-time link that lets `memberId` set a new password (and mails it when SMTP is set).
 * Refused (403 `member_of_other_workspace`) when the member also belongs to a workspace the caller does not
 * administer: otherwise one team's admin could take over the accounts of another's members.
 */
export async function createPasswordResetLink(ctx: Ctx, workspaceId: string, memberId: string) {
  const actor = requireSessionActor(ctx, 'API keys cannot make password-reset links; use a session token (JWT)');
  await requireWorkspaceRole(ctx, workspaceId, 'admin');
  refusePasswordLoginWhenOidcOnly(ctx);
  if (!(await memberRole(ctx.db, workspaceId, memberId)).role) throw notFound('Member', memberId);
  if ((await credentialsRepo.workspacesBeyondAdmin(ctx.db, memberId, actor.userId)) > 0)
    throw forbidden('This member also belongs to a workspace you do not administer; an admin of every workspace they are in can reset their password', {
      reason: 'member_of_other_workspace',
    });
  const member = await usersRepo.findById(ctx.db, memberId);
  if (!member) throw notFound('Member', memberId);
  const token = newLinkToken();
  const now = ctx.now();
  const expiresAt = new Date(now.getTime() + RESET_LINK_TTL_MS);
  await ctx.db.transaction().execute(async (trx) => {
    await credentialsRepo.replaceResetLink(
      trx,
      { id: newId(), userId: memberId, workspaceId, createdBy: actor.userId, tokenHash: hashApiKey(token), expiresAt },
      now,
    );
    await recordAudit(trx, ctx, {
      workspaceId,
      action: 'auth.password_reset_link_created',
      targetType: 'member',
      targetId: memberId,
      details: { expiresAt: expiresAt.toISOString() },
    });
  });
  const url = `${publicUrlOf(ctx.env.config)}/reset-password/${token}`;
  return { url, expiresAt: expiresAt.toISOString(), mailed: await mailResetLink(ctx, member.email, url, expiresAt) };
}

/** Mails the link when SMTP is configured; a failure is logged and answered `false`, the link still works to copy by hand. */
async function mailResetLink(ctx: Ctx, to: string, url: string, expiresAt: Date): Promise<boolean> {
  const mailer = mailerOf(ctx.env.config);
  if (!mailer) return false;
  try {
    await mailer.send({
      to,
      subject: 'Set a new password for kb',
      text: `An admin of your kb workspace made you a link to set a new password:\n\n${url}\n\nIt works once, until ${expiresAt.toUTCString()}. If you did not expect this, ignore this message.\n`,
    });
    return true;
  } catch (err) {
    ctx.log.warn({ err }, 'password-reset link could not be mailed');
    return false;
  }
}

/** One answer for an unknown, used, replaced or expired link, so the answer never tells which. */
const deadLink = () =>
  new AppError('INVALID_PARAMETER', 'This password-reset link is invalid, already used or expired; ask an admin for a new one', {
    field: 'token',
    reason: 'invalid_or_expired',
  });

/** Uses a reset link: sets the password, signs out every session of the account and starts a new one (`via: reset`). */
export async function resetPassword(ctx: Ctx, cache: SessionCache, input: z.infer<typeof PasswordResetBody>) {
  refusePasswordLoginWhenOidcOnly(ctx);
  const passwordHash = await hashPassword(input.newPassword);
  const now = ctx.now();
  const { userId, revoked, session } = await ctx.db.transaction().execute(async (trx) => {
    const link = await credentialsRepo.useResetLink(trx, hashApiKey(input.token), now);
    if (!link) throw deadLink();
    await credentialsRepo.setPasswordHash(trx, link.userId, passwordHash, now);
    const ids = await sessionsRepo.revoke(trx, link.userId, now, {});
    await recordAudit(trx, ctx, {
      workspaceId: null,
      action: 'auth.password_reset',
      actorId: link.userId,
      targetType: 'user',
      targetId: link.userId,
      details: { sessionsRevoked: ids.length },
    });
    return { userId: link.userId, revoked: ids, session: await startSession({ ...ctx, db: trx }, link.userId, 'reset') };
  });
  cache.forgetSessions(revoked);
  const user = await usersRepo.findById(ctx.db, userId);
  if (!user) throw deadLink();
  return { user: presentUser(user), token: session.token, expiresAt: session.expiresAt.toISOString() };
}
