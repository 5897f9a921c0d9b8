import { type Actor, type Ctx, requireActor } from '../../context.js';
import type { Db } from '../../db/index.js';
import type { SessionVia } from '../../db/tables/auth.js';
import { forbidden } from '../../errors.js';
import { newId } from '../../ids.js';
import { recordAudit } from '../audit/audit.record.js';
import { sessionsRepo } from './sessions.repo.js';

/** How long a session that ended stays listed in the table (not in the API) before a sign-in of its user prunes it. */
const ENDED_SESSIONS_KEPT_MS = 30 * 24 * 3600 * 1000;

/** Runs `work` in the caller's transaction when there is one, else in a new one. */
export function inTransaction<T>(db: Db, work: (trx: Db) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}

/**
 * Starts a signed-in session for `userId` (login, signup, single sign-on, an accepted invitation, a password reset)
 * and answers its token. Every way of signing in goes through here, so every session can be listed and revoked:
 * it writes the session row (device and address from `ctx.client`) and the `auth.signin` audit entry (details.via),
 * so callers record no sign-in entry of their own. Pass a transaction as `ctx.db` to make it part of a larger change.
 */
export async function startSession(ctx: Ctx, userId: string, via: SessionVia = 'password'): Promise<{ token: string; expiresAt: Date }> {
  const id = newId();
  const now = ctx.now();
  const issued = await ctx.env.tokens.issue(userId, id, now);
  await inTransaction(ctx.db, async (trx) => {
    await sessionsRepo.insert(trx, {
      id,
      userId,
      via,
      expiresAt: issued.expiresAt,
      lastSeenAt: now,
      userAgent: ctx.client?.userAgent ?? null,
      firstAddress: ctx.client?.address ?? null,
    });
    await recordAudit(trx, ctx, { workspaceId: null, action: 'auth.signin', actorId: userId, targetType: 'session', targetId: id, details: { via } });
    await sessionsRepo.pruneEnded(trx, userId, new Date(now.getTime() - ENDED_SESSIONS_KEPT_MS));
  });
  return issued;
}

/**
 * The caller, when they act through a session (a JWT, by bearer or cookie): API keys get 403 `session_required`, so a
 * leaked key cannot mint credentials that outlive it, nor see or end the owner's sessions.
 */
export function requireSessionActor(ctx: Ctx, message = 'API keys cannot do this; sign in and use the session token (JWT) from /auth/login'): Actor {
  const actor = requireActor(ctx);
  if (actor.via !== 'jwt') throw forbidden(message, { reason: 'session_required' });
  return actor;
}
