import type { Ctx } from '../../context.js';

/**
 * Starts a signed-in session for `userId` (login, signup, single sign-on, an accepted invitation) and answers its token.
 * Every way of signing in goes through here, so every session can be listed and revoked.
 */
export async function startSession(ctx: Ctx, userId: string): Promise<{ token: string; expiresAt: Date }> {
  return ctx.env.tokens.issue(userId, ctx.now());
}
