import { AppError, forbidden } from '../../errors.js';

/** What decides whether a link still works. */
interface LinkState {
  acceptedAt: Date | null;
  revokedAt: Date | null;
  expiresAt: Date;
}

const linkGone = (reason: 'accepted' | 'revoked' | 'expired', message: string) => new AppError('DELETED', message, { resource: 'Invitation', reason });

/** A link works once, until it expires or an admin revokes it: 410 DELETED with the reason otherwise. */
export function assertLinkUsable(invitation: LinkState, now: Date): void {
  if (invitation.acceptedAt) throw linkGone('accepted', 'This invitation has already been used');
  if (invitation.revokedAt) throw linkGone('revoked', 'This invitation was withdrawn; ask for a new one');
  if (invitation.expiresAt <= now) throw linkGone('expired', 'This invitation has expired; ask for a new one');
}

/** Only the invited address may accept: a forwarded link cannot let someone else in. */
export function assertInvitedAccount(accountEmail: string, invitedEmail: string): void {
  if (accountEmail.toLowerCase() !== invitedEmail.toLowerCase())
    throw forbidden(`This invitation is for ${invitedEmail}; you are signed in as ${accountEmail}. Sign in as ${invitedEmail} to accept it.`, {
      reason: 'email_mismatch',
    });
}
