import type { Ctx } from '../../context.js';
import type { Db } from '../../db/index.js';
import { recordAudit } from '../audit/audit.record.js';
import { apiKeysRepo } from './auth.repo.js';
import { credentialsRepo } from './credentials.repo.js';
import { sessionsRepo } from './sessions.repo.js';

/** What a claim took away, for the authenticator to stop trusting at once (other instances follow within its cache time). */
export interface ClaimedCredentials {
  sessionIds: string[];
  keyHashes: string[];
}

/** The authenticator's caches of sessions and keys. */
export interface CredentialCache {
  forgetSessions(sessionIds: readonly string[]): void;
  forget(keyHash: string): void;
}

export function forgetClaimed(cache: CredentialCache, claimed: ClaimedCredentials | null) {
  if (!claimed) return;
  cache.forgetSessions(claimed.sessionIds);
  for (const hash of claimed.keyHashes) cache.forget(hash);
}

/**
 * A single sign-on proves who holds an email; a password account whose email kb never verified proves nothing: anyone
 * could have signed up with a colleague's address. When the provider's person signs in to such an account, everything
 * its maker may have kept is taken away, in the caller's transaction: the password (and with it every open reset link),
 * every session and every API key. The `auth.unverified_account_claimed` entry says what went.
 */
export async function claimUnverifiedAccount(
  trx: Db,
  ctx: Ctx,
  account: { id: string; passwordHash: string | null },
  provider: { issuer: string; linked: boolean },
): Promise<ClaimedCredentials> {
  const now = ctx.now();
  const resetLinksVoided = await credentialsRepo.setPasswordHash(trx, account.id, null, now);
  const sessionIds = await sessionsRepo.revoke(trx, account.id, now, {});
  const keyHashes = await apiKeysRepo.revokeAllForUser(trx, account.id, now);
  await recordAudit(trx, ctx, {
    workspaceId: null,
    action: 'auth.unverified_account_claimed',
    actorId: account.id,
    targetType: 'user',
    targetId: account.id,
    details: {
      via: 'oidc',
      issuer: provider.issuer,
      // true: this sign-in linked the identity; false: the identity was linked before kb verified emails.
      linkedNow: provider.linked,
      passwordRemoved: account.passwordHash !== null,
      sessionsRevoked: sessionIds.length,
      apiKeysRevoked: keyHashes.length,
      resetLinksVoided,
    },
  });
  return { sessionIds, keyHashes };
}
