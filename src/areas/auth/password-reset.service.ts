import type { z } from 'zod';
import { publicUrlOf } from '../../config.js';
import type { Ctx } from '../../context.js';
import type { Db } from '../../db/index.js';
import { AppError, forbidden, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import { mailerOf } from '../../mail/mailer.js';
import { recordAudit } from '../audit/audit.record.js';
import { presentSelf } from '../users/users.present.js';
import { usersRepo } from '../users/users.repo.js';
import { memberRole, requireWorkspaceRole } from '../workspaces/workspaces.policy.js';
import type { PasswordResetBody } from './auth.schema.js';
import { refusePasswordLoginWhenOidcOnly } from './auth.service.js';
import type { SessionCache } from './authenticator.js';
import { credentialsRepo } from './credentials.repo.js';
import { oidcSettingsOf } from './oidc.client.js';
import { identitiesRepo } from './oidc.repo.js';
import { hashPassword } from './passwords.js';
import { requireSessionActor, startSession } from './sessions.js';
import { sessionsRepo } from './sessions.repo.js';
import { hashApiKey, newLinkToken } from './tokens.js';

/** How long a reset link works. */
export const RESET_LINK_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * Why an admin may not give `memberId` a new password through a link, or null when they may. Asked when the link is
 * made and again when it is used, so a link outlives none of its reasons:
 * - `member_of_other_workspace`: the member belongs to a workspace the admin does not administer (one team's admin
 *   must not take over the account another team relies on);
 * - `sso_account`: single sign-on is configured and the account signs in through it: its holder proved themselves to
 *   the provider, and a link the admin is shown proves nothing about who uses it.
 */
async function resetRefusal(db: Db, ctx: Ctx, memberId: string, adminId: string): Promise<'member_of_other_workspace' | 'sso_account' | null> {
  if ((await credentialsRepo.workspacesBeyondAdmin(db, memberId, adminId)) > 0) return 'member_of_other_workspace';
  if (oidcSettingsOf(ctx.env.config) && (await identitiesRepo.countForUser(db, memberId)) > 0) return 'sso_account';
  return null;
}

const REFUSALS = {
  member_of_other_workspace: 'This member also belongs to a workspace you do not administer; an admin of every workspace they are in can reset their password',
  sso_account: 'This member signs in with single sign-on: their password is not reset by a link (their identity provider vouches for them)',
} as const;

/**
 * A workspace admin makes a one-time link that lets `memberId` set a new password (and mails it when SMTP is set).
 * Refused with 403 and the reason of `resetRefusal`.
 */
export async function createPasswordResetLink(ctx: Ctx, workspaceId: string, memberId: string) {
  const actor = requireSessionActor(ctx, 'API keys cannot make password-reset links; use a session token (JWT)');
  await requireWorkspaceRole(ctx, workspaceId, 'admin');
  refusePasswordLoginWhenOidcOnly(ctx);
  if (!(await memberRole(ctx.db, workspaceId, memberId)).role) throw notFound('Member', memberId);
  const refusal = await resetRefusal(ctx.db, ctx, memberId, actor.userId);
  if (refusal) throw forbidden(REFUSALS[refusal], { reason: refusal });
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

/**
 * Whether a link still has its reasons when it is used: its member is still in its workspace, its maker is still an
 * admin there, and `resetRefusal` has nothing against it now (the member joined no workspace its maker does not administer).
 */
async function stillEligible(db: Db, ctx: Ctx, link: { userId: string; workspaceId: string | null; createdBy: string | null }): Promise<boolean> {
  const { workspaceId, createdBy } = link;
  if (workspaceId === null || createdBy === null) return false;
  if (!(await memberRole(db, workspaceId, link.userId)).role) return false;
  if ((await memberRole(db, workspaceId, createdBy)).role !== 'admin') return false;
  return (await resetRefusal(db, ctx, link.userId, createdBy)) === null;
}

/**
 * Uses a reset link: sets the password, signs out every session of the account and starts a new one (`via: reset`).
 * A link whose reasons are gone (`stillEligible`) is voided and answered like any dead link.
 */
export async function resetPassword(ctx: Ctx, cache: SessionCache, input: z.infer<typeof PasswordResetBody>) {
  refusePasswordLoginWhenOidcOnly(ctx);
  const passwordHash = await hashPassword(input.newPassword);
  const now = ctx.now();
  const outcome = await ctx.db.transaction().execute(async (trx) => {
    const live = await credentialsRepo.findLiveResetLink(trx, hashApiKey(input.token), now);
    if (!live) throw deadLink();
    if (!(await stillEligible(trx, ctx, live))) {
      // Voided for good (committed), so the link does not come back to life when the member's workspaces change again.
      await credentialsRepo.voidResetLink(trx, live.id, now);
      return null;
    }
    const link = await credentialsRepo.useResetLink(trx, live.id, now);
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
  if (!outcome) throw deadLink();
  const { userId, revoked, session } = outcome;
  cache.forgetSessions(revoked);
  const user = await usersRepo.findById(ctx.db, userId);
  if (!user) throw deadLink();
  return { user: presentSelf(user), token: session.token, expiresAt: session.expiresAt.toISOString() };
}
