import type { z } from 'zod';
import { publicUrlOf } from '../../config.js';
import { type Ctx, requireActor } from '../../context.js';
import { AppError, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import { mailerOf, mailFailureReason } from '../../mail/mailer.js';
import { recordAudit } from '../audit/audit.record.js';
import { usersRepo } from '../users/users.repo.js';
import type { EmailVerificationConfirmBody } from './auth.schema.js';
import { emailVerificationsRepo } from './email-verification.repo.js';
import { assertUnderHourlyLimit, HOUR_MS } from './hourly-limit.js';
import { hashApiKey, newLinkToken } from './tokens.js';

/** How long a verification link works. */
export const VERIFICATION_TTL_MS = 24 * HOUR_MS;
/** Verification mails one account may ask for per hour: enough to retry, too few to mail-bomb oneself. */
export const VERIFICATIONS_PER_HOUR = 5;

/**
 * Mails the caller a one-time link to their account's email; opening it (`confirmEmailVerification`) marks the email
 * verified. The link is never shown in the answer: only the mailbox's reader can use it, which is the whole point.
 * 404 `mail_disabled` without SMTP_URL; 503 `mail_failed` when the mail server refuses (the link then never reached anyone).
 */
export async function requestEmailVerification(ctx: Ctx) {
  const actor = requireActor(ctx);
  const user = await usersRepo.findById(ctx.db, actor.userId);
  if (!user) throw notFound('User', actor.userId);
  if (user.emailVerifiedAt !== null) return { email: user.email, verified: true, mailed: false };
  const mailer = mailerOf(ctx.env.config);
  if (!mailer)
    throw new AppError('NOT_FOUND', 'This service sends no mail (SMTP_URL is not set), so it cannot verify email addresses', { reason: 'mail_disabled' });
  const token = newLinkToken();
  const now = ctx.now();
  const expiresAt = new Date(now.getTime() + VERIFICATION_TTL_MS);
  await ctx.db.transaction().execute(async (trx) => {
    const used = await emailVerificationsRepo.lockAndCountSince(trx, user.id, new Date(now.getTime() - HOUR_MS));
    assertUnderHourlyLimit(used, VERIFICATIONS_PER_HOUR, now, { message: 'Too many verification mails asked for', reason: 'too_many_verification_mails' });
    await emailVerificationsRepo.insert(trx, { id: newId(), userId: user.id, email: user.email, tokenHash: hashApiKey(token), expiresAt });
  });
  const url = `${publicUrlOf(ctx.env.config)}/verify-email/${token}`;
  try {
    await mailer.send({
      to: user.email,
      subject: 'Verify your email address for kb',
      text: `Open this link to confirm that ${user.email} is yours:\n\n${url}\n\nIt works once, until ${expiresAt.toUTCString()}. If you did not ask for it, ignore this message.\n`,
    });
  } catch (err) {
    ctx.log.warn({ err }, 'email verification mail failed');
    throw new AppError('SERVICE_UNAVAILABLE', `The verification mail could not be sent: ${mailFailureReason(err)}`, { reason: 'mail_failed' });
  }
  return { email: user.email, verified: false, mailed: true, expiresAt: expiresAt.toISOString() };
}

const deadLink = () =>
  new AppError('INVALID_PARAMETER', 'This verification link is invalid, already used or expired; ask for a new one', {
    field: 'token',
    reason: 'invalid_or_expired',
  });

/**
 * Uses a verification link (no sign-in needed: whoever opens the mail proves the mailbox): the account's email counts
 * as verified from now on, as long as it is still the address the link was mailed to. One answer for any dead link.
 */
export async function confirmEmailVerification(ctx: Ctx, input: z.infer<typeof EmailVerificationConfirmBody>) {
  const now = ctx.now();
  const email = await ctx.db.transaction().execute(async (trx) => {
    const link = await emailVerificationsRepo.use(trx, hashApiKey(input.token), now);
    if (!link) throw deadLink();
    const user = await usersRepo.findById(trx, link.userId);
    if (!user || user.email.toLowerCase() !== link.email.toLowerCase()) throw deadLink();
    if (user.emailVerifiedAt === null) {
      await usersRepo.markEmailVerified(trx, user.id, now);
      await recordAudit(trx, ctx, {
        workspaceId: null,
        action: 'auth.email_verified',
        actorId: user.id,
        targetType: 'user',
        targetId: user.id,
        details: { email: user.email, via: 'link' },
      });
    }
    return user.email;
  });
  return { email, verified: true as const };
}
