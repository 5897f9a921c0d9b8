import type { Ctx } from '../../context.js';
import type { Db } from '../../db/index.js';
import { oidcSettingsOf } from '../auth/oidc.client.js';
import { identitiesRepo } from '../auth/oidc.repo.js';
import { allowedDomainsOf } from '../auth/oidc.service.js';
import { isNamedVerifiedAccount } from '../users/named-accounts.js';

/**
 * An admin of the whole installation: an account named in INSTALL_ADMINS whose email kb has verified (a name in a
 * setting is worth nothing if anyone can sign up with that address first).
 */
export function isInstallAdmin(db: Db, ctx: Pick<Ctx, 'env'>, userId: string): Promise<boolean> {
  return isNamedVerifiedAccount(db, ctx.env.config.INSTALL_ADMINS, userId);
}

/**
 * An account the installation's single sign-on owns: its email's domain is one of OIDC_ALLOWED_DOMAINS and it signs in
 * through the provider. The organisation's directory vouches for it, as it does for its every sign-in.
 */
async function isOwnedBySso(db: Db, ctx: Pick<Ctx, 'env'>, account: { id: string; email: string }): Promise<boolean> {
  const { config } = ctx.env;
  if (!oidcSettingsOf(config)) return false;
  const domains = allowedDomainsOf(config.OIDC_ALLOWED_DOMAINS);
  const domain = account.email.slice(account.email.lastIndexOf('@') + 1).toLowerCase();
  return domains.includes(domain) && (await identitiesRepo.countForUser(db, account.id)) > 0;
}

/**
 * Whether a workspace admin may add an existing account at once rather than invite it: nobody is put into a workspace
 * without their consent, unless the installation's admin does it or the account belongs to the installation's single
 * sign-on. Answers why (for the audit entry), or null: invite.
 */
export async function directAddReason(
  db: Db,
  ctx: Ctx,
  callerId: string,
  account: { id: string; email: string },
): Promise<'install_admin' | 'sso_domain' | null> {
  if (await isInstallAdmin(db, ctx, callerId)) return 'install_admin';
  if (await isOwnedBySso(db, ctx, account)) return 'sso_domain';
  return null;
}
