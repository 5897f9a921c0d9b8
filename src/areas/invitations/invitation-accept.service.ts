import type { z } from 'zod';
import { type Ctx, requireActor } from '../../context.js';
import { alreadyExists, forbidden, missingRequired, notFound, readOnlyKeyRefusal } from '../../errors.js';
import { recordAudit } from '../audit/audit.record.js';
import { createUser } from '../auth/auth.service.js';
import { startSession } from '../auth/sessions.js';
import { hashApiKey } from '../auth/tokens.js';
import { nudgeEventDispatch } from '../events/events.jobs.js';
import { recordEvent } from '../events/events.record.js';
import { presentSelf } from '../users/users.present.js';
import { usersRepo } from '../users/users.repo.js';
import { memberRole, type Role } from '../workspaces/workspaces.policy.js';
import { workspacesRepo } from '../workspaces/workspaces.repo.js';
import { assertInvitedAccount, assertLinkUsable } from './invitations.policy.js';
import { presentReceivedInvitation } from './invitations.present.js';
import { type InvitationRow, invitationsRepo } from './invitations.repo.js';
import type { InvitationAcceptBody } from './invitations.schema.js';

type Account = NonNullable<Awaited<ReturnType<typeof usersRepo.findById>>>;

async function usableInvitation(ctx: Ctx, token: string, lock = false) {
  const row = await invitationsRepo.findByTokenHash(ctx.db, hashApiKey(token), lock);
  if (!row) throw notFound('Invitation');
  assertLinkUsable(row, ctx.now());
  return row;
}

/** What a link is for, to anyone holding it: 404 for an unknown link, 410 for a used, revoked, declined or expired one. */
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
 * Accepts a link, once. Signed in, the account must be the invited one; not signed in, `name` and `password` create
 * the invited account and a session starts for it. The membership, the used link and the audit entries are one transaction.
 */
export async function acceptInvitation(ctx: Ctx, token: string, input: z.infer<typeof InvitationAcceptBody>) {
  if (ctx.actor?.readOnly) throw readOnlyKeyRefusal();
  const accepted = await ctx.db.transaction().execute(async (trx) => {
    const tx = { ...ctx, db: trx };
    const invitation = await usableInvitation(tx, token, true);
    const user = ctx.actor ? await invitedAccount(tx, ctx.actor.userId, invitation) : await createInvitedAccount(tx, invitation.email, input);
    const joined = await joinThroughInvitation(tx, invitation, user);
    const session = ctx.actor ? null : await startSession(tx, user.id, 'invitation');
    return { ...joined, ...(session ? { token: session.token, expiresAt: session.expiresAt.toISOString() } : {}) };
  });
  await nudgeEventDispatch(ctx);
  return accepted;
}

/**
 * The membership an invitation gives, in the caller's transaction: added with the invited role (someone who became a
 * member meanwhile keeps theirs), the invitation used up, the audit entries and the `member.joined` event written.
 */
async function joinThroughInvitation(ctx: Ctx, invitation: InvitationRow, user: Account) {
  const trx = ctx.db;
  const { workspaceId, email } = invitation;
  const { role: current } = await memberRole(trx, workspaceId, user.id);
  if (!current) await workspacesRepo.insertMember(trx, workspaceId, user.id, invitation.role);
  await invitationsRepo.markAccepted(trx, workspaceId, invitation.id, user.id, ctx.now());
  // The one who accepts is the actor, signed in or just created.
  const actorId = user.id;
  const details = { email, role: invitation.role, ...(current ? { alreadyMember: true } : {}) };
  await recordAudit(trx, ctx, { workspaceId, actorId, action: 'invitation.accepted', targetType: 'invitation', targetId: invitation.id, details });
  if (!current) {
    await recordAudit(trx, ctx, {
      workspaceId,
      actorId,
      action: 'member.added',
      targetType: 'member',
      targetId: user.id,
      details: { role: invitation.role, via: 'invitation' },
    });
    await recordEvent(trx, ctx, {
      workspaceId,
      actorId,
      type: 'member.joined',
      subject: { type: 'member', id: user.id },
      data: { userId: user.id, name: user.name, role: invitation.role, via: 'invitation', invitedBy: invitation.invitedBy ?? null },
    });
  }
  return { workspaceId, role: (current ?? invitation.role) as Role, user: presentSelf(user) };
}

async function invitedAccount(ctx: Ctx, userId: string, invitation: InvitationRow) {
  const user = await usersRepo.findById(ctx.db, userId);
  if (!user) throw notFound('User', userId);
  assertInvitedAccount(user, invitation);
  return user;
}

async function createInvitedAccount(ctx: Ctx, email: string, input: z.infer<typeof InvitationAcceptBody>) {
  if (ctx.env.config.OIDC_ONLY)
    throw forbidden('Accounts are made through single sign-on here: sign in with it first, then open the invitation again', { reason: 'oidc_only' });
  if (await usersRepo.findByEmail(ctx.db, email))
    throw alreadyExists(`An account for ${email} exists already: sign in first, then accept the invitation`, 'email');
  if (!input.name) throw missingRequired('name', 'name is required to create your account (or sign in first)');
  if (!input.password) throw missingRequired('password', 'password is required to create your account (or sign in first)');
  // Not a verified email: the inviter was shown the link too, so using it proves nothing about the mailbox.
  return createUser(ctx.db, { email, name: input.name, password: input.password });
}

/** The signed-in person's account, as invitations to it are matched: by id, and by email once that is verified. */
async function accountOf(ctx: Ctx) {
  const actor = requireActor(ctx);
  const user = await usersRepo.findById(ctx.db, actor.userId);
  if (!user) throw notFound('User', actor.userId);
  return { user, match: { id: user.id, email: user.email, emailVerified: user.emailVerifiedAt !== null } };
}

/**
 * The invitations the caller may answer without a link: to their account (an admin added them by user id), and to
 * their email once kb has verified it (an unverified email could be anyone's). Open and unexpired, newest first.
 */
export async function listMyInvitations(ctx: Ctx) {
  const { match } = await accountOf(ctx);
  const rows = await invitationsRepo.listForAccount(ctx.db, match, ctx.now());
  return rows.map(presentReceivedInvitation);
}

/** Accepts one of `listMyInvitations` by id with the caller's own credentials: 404 for any other, 410 once expired. */
export async function acceptMyInvitation(ctx: Ctx, id: string) {
  if (ctx.actor?.readOnly) throw readOnlyKeyRefusal();
  const accepted = await ctx.db.transaction().execute(async (trx) => {
    const tx = { ...ctx, db: trx };
    const { user, match } = await accountOf(tx);
    const invitation = await invitationsRepo.findForAccount(trx, match, id, true);
    if (!invitation) throw notFound('Invitation', id);
    assertLinkUsable(invitation, ctx.now());
    return joinThroughInvitation(tx, invitation, user);
  });
  await nudgeEventDispatch(ctx);
  return accepted;
}

/** Declines one of `listMyInvitations`: it closes (its link dies too) and the workspace's audit log says so. */
export async function declineMyInvitation(ctx: Ctx, id: string) {
  if (ctx.actor?.readOnly) throw readOnlyKeyRefusal();
  await ctx.db.transaction().execute(async (trx) => {
    const { match } = await accountOf({ ...ctx, db: trx });
    const invitation = await invitationsRepo.findForAccount(trx, match, id, true);
    if (!invitation) throw notFound('Invitation', id);
    await invitationsRepo.decline(trx, invitation.workspaceId, id, ctx.now());
    await recordAudit(trx, ctx, {
      workspaceId: invitation.workspaceId,
      action: 'invitation.declined',
      targetType: 'invitation',
      targetId: id,
      details: { email: invitation.email, role: invitation.role },
    });
  });
  return { id, deleted: true as const };
}
