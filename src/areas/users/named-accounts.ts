import type { Db } from '../../db/index.js';
import { usersRepo } from './users.repo.js';

/** The emails of a comma-separated setting (INSTALL_ADMINS, BUG_REPORT_ADMINS), trimmed and lower-cased. */
export const emailsOf = (setting: string) =>
  setting
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);

/**
 * Whether the account is one a setting names by email, and kb has verified that email: a name in a setting is worth
 * nothing if anyone can sign up with that address first (the account would squat the setting's powers).
 */
export async function isNamedVerifiedAccount(db: Db, setting: string, userId: string): Promise<boolean> {
  const named = emailsOf(setting);
  if (named.length === 0) return false;
  const user = await usersRepo.findById(db, userId);
  return !!user && user.emailVerifiedAt !== null && named.includes(user.email.toLowerCase());
}
