import { AppError, forbidden } from '../../errors.js';

/** What decides whether a link still works. */
interface LinkState {
  acceptedAt: Date | null;
  revokedAt: Date | null;
  declinedAt: Date | null;
  expiresAt: Date;
}

const linkGone = (reason: 'accepted' | 'revoked' | 'declined' | 'expired', message: string) =>
  new AppError('DELETED', message, { resource: 'Invitation', reason });

/** A link works once, until it expires, an admin revokes it or the person declines it: 410 DELETED with the reason otherwise. */
export function assertLinkUsable(invitation: LinkState, now: Date): void {
  if (invitation.acceptedAt) throw linkGone('accepted', 'This invitation has already been used');
  if (invitation.declinedAt) throw linkGone('declined', 'This invitation was declined; ask for a new one');
  if (invitation.revokedAt) throw linkGone('revoked', 'This invitation was withdrawn; ask for a new one');
  if (invitation.expiresAt <= now) throw linkGone('expired', 'This invitation has expired; ask for a new one');
}

/**
 * Only the invited may accept: a forwarded link cannot let someone else in. An invitation to an account (an add by
 * user id) is for that account; one to an address, for the account with that email.
 */
export function assertInvitedAccount(account: { id: string; email: string }, invited: { email: string; userId: string | null }): void {
  if (invited.userId !== null ? account.id === invited.userId : account.email.toLowerCase() === invited.email.toLowerCase()) return;
  throw forbidden(`This invitation is for ${invited.email}; you are signed in as ${account.email}. Sign in as ${invited.email} to accept it.`, {
    reason: 'email_mismatch',
  });
}
