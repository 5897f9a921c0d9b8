import { type Ctx, requireActor } from '../../context.js';
import { notFound } from '../../errors.js';
import { recordAudit } from '../audit/audit.record.js';
import type { SessionCache } from './authenticator.js';
import { requireSessionActor } from './sessions.js';
import { presentSession } from './sessions.present.js';
import { sessionsRepo } from './sessions.repo.js';

const SESSION_ONLY = 'API keys cannot see or end sessions; sign in and use the session token (JWT) from /auth/login';

/** The caller's open sessions (not revoked, not expired), the calling one marked `current`. */
export async function listSessions(ctx: Ctx) {
  const actor = requireSessionActor(ctx, SESSION_ONLY);
  const rows = await sessionsRepo.listActiveForUser(ctx.db, actor.userId, ctx.now());
  return rows.map((r) => presentSession(r, actor.sessionId));
}

/** Signs out one of the caller's sessions (the calling one too, if named); someone else's, or an ended one, is a 404. */
export async function revokeSession(ctx: Ctx, cache: SessionCache, sessionId: string) {
  const actor = requireSessionActor(ctx, SESSION_ONLY);
  const revoked = await ctx.db.transaction().execute(async (trx) => {
    const ids = await sessionsRepo.revoke(trx, actor.userId, ctx.now(), { onlyId: sessionId });
    if (ids.length) await recordAudit(trx, ctx, { workspaceId: null, action: 'auth.session_revoked', targetType: 'session', targetId: sessionId });
    return ids;
  });
  if (!revoked.length) throw notFound('Session', sessionId);
  cache.forgetSessions(revoked);
  return { id: sessionId, deleted: true as const };
}

/** Signs out every session of the caller, but the calling one unless `keepCurrent` is false. */
export async function revokeSessions(ctx: Ctx, cache: SessionCache, keepCurrent: boolean) {
  const actor = requireSessionActor(ctx, SESSION_ONLY);
  const revoked = await ctx.db.transaction().execute(async (trx) => {
    const ids = await sessionsRepo.revoke(trx, actor.userId, ctx.now(), { exceptId: keepCurrent ? (actor.sessionId ?? null) : null });
    if (ids.length)
      await recordAudit(trx, ctx, {
        workspaceId: null,
        action: 'auth.session_revoked',
        targetType: 'user',
        targetId: actor.userId,
        details: { count: ids.length, keptCurrent: keepCurrent },
      });
    return ids;
  });
  cache.forgetSessions(revoked);
  return { revoked: revoked.length, keptCurrent: keepCurrent };
}

/** Ends the calling session on the server (browser sign-out): its token stops working on this instance at once. */
export async function signOutSession(ctx: Ctx, cache: SessionCache) {
  const actor = requireActor(ctx);
  if (!actor.sessionId) return; // an API key: nothing to end
  const revoked = await ctx.db.transaction().execute(async (trx) => {
    const ids = await sessionsRepo.revoke(trx, actor.userId, ctx.now(), { onlyId: actor.sessionId });
    if (ids.length) await recordAudit(trx, ctx, { workspaceId: null, action: 'auth.signout', targetType: 'session', targetId: actor.sessionId });
    return ids;
  });
  cache.forgetSessions(revoked);
}
