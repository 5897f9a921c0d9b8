import type { z } from 'zod';
import { publicUrlOf } from '../../config.js';
import { type Ctx, requireActor } from '../../context.js';
import { isUniqueViolation } from '../../db/index.js';
import { AppError, alreadyExists, forbidden, missingRequired, notFound, readOnlyKeyRefusal } from '../../errors.js';
import { newId } from '../../ids.js';
import { mailerOf, mailFailureReason } from '../../mail/mailer.js';
import { invitationMail } from '../../mail/templates.js';
import { recordAudit } from '../audit/audit.record.js';
import { createUser } from '../auth/auth.service.js';
import { startSession } from '../auth/sessions.js';
import { hashApiKey, newLinkToken } from '../auth/tokens.js';
import { nudgeEventDispatch } from '../events/events.jobs.js';
import { recordEvent } from '../events/events.record.js';
import { presentUser } from '../users/users.present.js';
import { usersRepo } from '../users/users.repo.js';
import { memberRole, type Role, requireWorkspaceRole } from '../workspaces/workspaces.policy.js';
import { workspacesRepo } from '../workspaces/workspaces.repo.js';
import { assertInvitedAccount, assertLinkUsable } from './invitations.policy.js';
import { presentInvitation } from './invitations.present.js';
import { type InvitationRow, invitationsRepo } from './invitations.repo.js';
import type { InvitationAcceptBody, InvitationCreateBody } from './invitations.schema.js';

/** How long a link works. */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** Where a link leads: the web app's invitation screen. */
export const invitationUrl = (ctx: Ctx, token: string) => `${publicUrlOf(ctx.env.config)}/invite/${token}`;

/**
 * Invites an address (workspace admin). Inviting it again revokes the open invitation and makes a new link. The link
 * is answered here only; with SMTP_URL set it is mailed too, after the commit, and a failed mail leaves the invitation in place.
 */
export async function createInvitation(ctx: Ctx, workspaceId: string, input: z.infer<typeof InvitationCreateBody>) {
  const actor = requireActor(ctx);
  await requireWorkspaceRole(ctx, workspaceId, 'admin');
  const email = input.email.toLowerCase();
  if (await invitationsRepo.isMemberByEmail(ctx.db, workspaceId, email)) throw alreadyExists(`${email} is already a member of this workspace`, 'email');
  const token = newLinkToken();
  const id = newId();
  const now = ctx.now();
  try {
    await ctx.db.transaction().execute(async (trx) => {
      const replaced = await invitationsRepo.revokeOpenForEmail(trx, workspaceId, email, now);
      await invitationsRepo.insert(trx, {
        id,
        workspaceId,
        email,
        role: input.role,
        tokenHash: hashApiKey(token),
        invitedBy: actor.userId,
        expiresAt: new Date(now.getTime() + INVITATION_TTL_MS),
      });
      for (const old of replaced)
        await recordAudit(trx, ctx, { workspaceId, action: 'invitation.revoked', targetType: 'invitation', targetId: old, details: { email, replacedBy: id } });
      await recordAudit(trx, ctx, { workspaceId, action: 'invitation.created', targetType: 'invitation', targetId: id, details: { email, role: input.role } });
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

/** Mails the link when a mail server is configured; a failure is logged and reported, never thrown. */
async function mailInvitation(ctx: Ctx, row: InvitationRow, url: string): Promise<{ mailed: boolean; mailError?: string }> {
  const mailer = mailerOf(ctx.env.config);
  if (!mailer) return { mailed: false };
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

async function usableInvitation(ctx: Ctx, token: string, lock = false) {
  const row = await invitationsRepo.findByTokenHash(ctx.db, hashApiKey(token), lock);
  if (!row) throw notFound('Invitation');
  assertLinkUsable(row, ctx.now());
  return row;
}

/** What a link is for, to anyone holding it: 404 for an unknown link, 410 for a used, revoked or expired one. */
export async function previewInvitation(ctx: Ctx, token: string) {
  const row = await usableInvitation(ctx, token);
  return {
    workspace: { id: row.workspaceId, name: row.workspaceName, hostname: row.workspaceHostname },
    inviter: row.inviterName === null ? null : { name: row.inviterName },
    email: row.email,
    role: row.role,
    expiresAt: row.expiresAt.toISOString(),
    accountExists: (await usersRepo.findByEmail(ctx.db, row.email)) !== undefined,
  };
}

/**
 * Accepts a link, once. Signed in, the account's email must be the invited one; not signed in, `name` and `password`
 * create the invited account and a session starts for it. The membership, the used link and the audit entries are one transaction.
 */
export async function acceptInvitation(ctx: Ctx, token: string, input: z.infer<typeof InvitationAcceptBody>) {
  if (ctx.actor?.readOnly) throw readOnlyKeyRefusal();
  const accepted = await ctx.db.transaction().execute(async (trx) => {
    const tx = { ...ctx, db: trx };
    const invitation = await usableInvitation(tx, token, true);
    const { workspaceId, email } = invitation;
    const user = ctx.actor ? await invitedAccount(tx, ctx.actor.userId, email) : await createInvitedAccount(tx, email, input);
    const { role: current } = await memberRole(trx, workspaceId, user.id);
    if (!current) await workspacesRepo.insertMember(trx, workspaceId, user.id, invitation.role);
    const now = ctx.now();
    await invitationsRepo.markAccepted(trx, workspaceId, invitation.id, user.id, now);
    // The one who accepts is the actor, signed in or just created.
    const actorId = user.id;
    const details = { email, role: invitation.role, ...(current ? { alreadyMember: true } : {}) };
    await recordAudit(trx, ctx, { workspaceId, actorId, action: 'invitation.accepted', targetType: 'invitation', targetId: invitation.id, details });
    if (!current)
      await recordAudit(trx, ctx, {
        workspaceId,
        actorId,
        action: 'member.added',
        targetType: 'member',
        targetId: user.id,
        details: { role: invitation.role, via: 'invitation' },
      });
    if (!current)
      await recordEvent(trx, ctx, {
        workspaceId,
        actorId,
        type: 'member.joined',
        subject: { type: 'member', id: user.id },
        data: { userId: user.id, name: user.name, role: invitation.role, via: 'invitation', invitedBy: invitation.invitedBy ?? null },
      });
    const session = ctx.actor ? null : await startSession(tx, user.id, 'invitation');
    return {
      workspaceId,
      role: (current ?? invitation.role) as Role,
      user: presentUser(user),
      ...(session ? { token: session.token, expiresAt: session.expiresAt.toISOString() } : {}),
    };
  });
  await nudgeEventDispatch(ctx);
  return accepted;
}

async function invitedAccount(ctx: Ctx, userId: string, invitedEmail: string) {
  const user = await usersRepo.findById(ctx.db, userId);
  if (!user) throw notFound('User', userId);
  assertInvitedAccount(user.email, invitedEmail);
  return user;
}

async function createInvitedAccount(ctx: Ctx, email: string, input: z.infer<typeof InvitationAcceptBody>) {
  if (ctx.env.config.OIDC_ONLY)
    throw forbidden('Accounts are made through single sign-on here: sign in with it first, then open the invitation again', { reason: 'oidc_only' });
  if (await usersRepo.findByEmail(ctx.db, email))
    throw alreadyExists(`An account for ${email} exists already: sign in first, then accept the invitation`, 'email');
  if (!input.name) throw missingRequired('name', 'name is required to create your account (or sign in first)');
  if (!input.password) throw missingRequired('password', 'password is required to create your account (or sign in first)');
  return createUser(ctx.db, { email, name: input.name, password: input.password });
}
