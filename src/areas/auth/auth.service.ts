import type { z } from 'zod';
import type { Actor, Ctx } from '../../context.js';
import type { Db } from '../../db/index.js';
import { isUniqueViolation } from '../../db/index.js';
import { AppError, alreadyExists, forbidden, notFound, unauthorized, validation } from '../../errors.js';
import { newId } from '../../ids.js';
import { recordAudit } from '../audit/audit.record.js';
import { presentSelf } from '../users/users.present.js';
import { usersRepo } from '../users/users.repo.js';
import { assertWorkspaceRole, memberRole } from '../workspaces/workspaces.policy.js';
import { apiKeysRepo } from './auth.repo.js';
import type { ApiKeyCreateBody, LoginBody, SignupBody } from './auth.schema.js';
import type { Authenticator } from './authenticator.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { requireSessionActor, startSession } from './sessions.js';
import { API_KEY_PREFIX, hashApiKey, newApiKey } from './tokens.js';

/** A new account; `emailVerifiedAt` only when whoever creates it knows the holder reads the mailbox (docs/sso.md). */
export async function createUser(db: Db, input: { email: string; name: string; password: string | null; emailVerifiedAt?: Date | null }) {
  try {
    return await usersRepo.insert(db, {
      id: newId(),
      email: input.email,
      name: input.name,
      passwordHash: input.password === null ? null : await hashPassword(input.password),
      emailVerifiedAt: input.emailVerifiedAt ?? null,
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw alreadyExists('An account with this email already exists', 'email');
    throw err;
  }
}

/** With OIDC_ONLY=true, accounts sign in through single sign-on only: no password signup or sign-in. */
export function refusePasswordLoginWhenOidcOnly(ctx: Ctx) {
  if (ctx.env.config.OIDC_ONLY)
    throw forbidden('Password sign-in and signup are turned off: sign in with single sign-on', { reason: 'password_login_disabled' });
}

export async function signup(ctx: Ctx, input: z.infer<typeof SignupBody>) {
  refusePasswordLoginWhenOidcOnly(ctx);
  const user = await createUser(ctx.db, input);
  const { token } = await startSession(ctx, user.id, 'signup');
  return { user: presentSelf(user), token };
}

export async function login(ctx: Ctx, input: z.infer<typeof LoginBody>) {
  refusePasswordLoginWhenOidcOnly(ctx);
  const user = await usersRepo.findByEmail(ctx.db, input.email);
  // Verify even for an unknown email so timing does not reveal which emails have accounts.
  const ok = await verifyPassword(input.password, user?.passwordHash ?? DUMMY_HASH);
  if (!user || !ok) {
    // The entry names the account when there is one (for its admins); the answer never does.
    await recordAudit(ctx.db, ctx, { workspaceId: null, action: 'auth.signin_failed', actorId: user?.id ?? null, details: { email: input.email } });
    throw unauthorized('Email or password is incorrect');
  }
  const { token, expiresAt } = await startSession(ctx, user.id, 'password');
  return { user: presentSelf(user), token, expiresAt: expiresAt.toISOString() };
}
const DUMMY_HASH = 'scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';

/** Key management needs a session: a leaked API key must not mint keys that outlive its own revocation, nor list or revoke the others. */
function requireSession(ctx: Ctx): Actor {
  return requireSessionActor(ctx, 'API keys cannot manage API keys; sign in and use the session token (JWT) from /auth/login');
}

/** Creates a key for the caller (or, from the `kb key create` command, for `ownerId`), within the per-user cap. */
export async function createApiKey(ctx: Ctx, input: z.input<typeof ApiKeyCreateBody>, ownerId = requireSession(ctx).userId) {
  const key = newApiKey();
  const max = ctx.env.config.MAX_API_KEYS_PER_USER;
  const expiresAt = input.expiresAt ? new Date(input.expiresAt) : null;
  if (expiresAt && expiresAt <= ctx.now()) throw validation('expiresAt', 'in_the_past', 'expiresAt must be in the future');
  const workspaceId = input.workspaceId ?? null;
  if (workspaceId) await assertKeyWorkspace(ctx.db, workspaceId, ownerId);
  const row = await ctx.db.transaction().execute(async (trx) => {
    if ((await apiKeysRepo.lockAndCountActive(trx, ownerId)) >= max)
      throw new AppError('VALIDATION_ERROR', `A user may hold at most ${max} active API keys; revoke one first`, {
        field: 'name',
        reason: 'too_many_keys',
        limit: max,
      });
    const created = await apiKeysRepo.insert(trx, {
      id: newId(),
      userId: ownerId,
      name: input.name,
      keyHash: hashApiKey(key),
      keyPrefix: key.slice(0, API_KEY_PREFIX.length + 6),
      access: input.access ?? 'read-write',
      expiresAt,
      workspaceId,
    });
    await recordAudit(trx, ctx, {
      workspaceId,
      action: 'api_key.created',
      actorId: ctx.actor?.userId ?? ownerId,
      targetType: 'api_key',
      targetId: created.id,
      details: { name: created.name, access: created.access, ownerId },
    });
    return created;
  });
  const scope = { access: row.access, expiresAt: row.expiresAt?.toISOString() ?? null, workspaceId: row.workspaceId };
  return { id: row.id, name: row.name, key, ...scope, createdAt: row.createdAt.toISOString() };
}

/** A key limited to a workspace needs its owner to be a member there: 404 when no such workspace, 403 for a non-member. */
async function assertKeyWorkspace(db: Db, workspaceId: string, ownerId: string) {
  const { exists, role } = await memberRole(db, workspaceId, ownerId);
  if (!exists) throw notFound('Workspace', workspaceId);
  assertWorkspaceRole(role, 'viewer', workspaceId);
}

/** The caller's active keys (or, from the `kb key list` command, `ownerId`'s), with each key's scope and last use. */
export async function listApiKeys(ctx: Ctx, ownerId = requireSession(ctx).userId) {
  const rows = await apiKeysRepo.listForUser(ctx.db, ownerId);
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    prefix: r.keyPrefix,
    access: r.access,
    expiresAt: r.expiresAt?.toISOString() ?? null,
    workspaceId: r.workspaceId,
    workspaceName: r.workspaceName,
    createdAt: r.createdAt.toISOString(),
    lastUsedAt: r.lastUsedAt?.toISOString() ?? null,
  }));
}

export async function revokeApiKey(ctx: Ctx, authenticator: Authenticator, id: string) {
  const actor = requireSession(ctx);
  const row = await ctx.db.transaction().execute(async (trx) => {
    const revoked = await apiKeysRepo.revoke(trx, id, actor.userId, ctx.now());
    // A key limited to a workspace is that workspace's business, as its creation was.
    if (revoked) await recordAudit(trx, ctx, { workspaceId: revoked.workspaceId, action: 'api_key.revoked', targetType: 'api_key', targetId: id });
    return revoked;
  });
  if (!row) throw notFound('API key', id);
  authenticator.forget(row.keyHash);
  return { id, deleted: true as const };
}

export { Authenticator } from './authenticator.js';
