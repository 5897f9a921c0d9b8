import type { Ctx } from '../../context.js';
import type { Db } from '../../db/index.js';
import { isUniqueViolation } from '../../db/index.js';
import { AppError } from '../../errors.js';
import { newId } from '../../ids.js';
import { recordAudit } from '../audit/audit.record.js';
import { usersRepo } from '../users/users.repo.js';
import { type ClaimedCredentials, type CredentialCache, claimUnverifiedAccount, forgetClaimed } from './account-claim.js';
import { createUser } from './auth.service.js';
import { credentialsRepo } from './credentials.repo.js';
import {
  authorizationUrl,
  newSignInChecks,
  oidcSettingsOf,
  type ProviderClaims,
  providerConfiguration,
  redeemCallback,
  redirectUriOf,
  SignInRefused,
} from './oidc.client.js';
import { type SignInAttempt, safeReturnTo } from './oidc.cookie.js';
import { identitiesRepo } from './oidc.repo.js';
import { startSession } from './sessions.js';

export const OIDC_START_PATH = '/api/v1/auth/oidc/start';

/** The ways to sign in that this service offers: what the web app's sign-in screen shows. */
export function signInProviders(ctx: Ctx) {
  const settings = oidcSettingsOf(ctx.env.config);
  return {
    password: !ctx.env.config.OIDC_ONLY,
    oidc: settings ? { name: settings.displayName, startUrl: OIDC_START_PATH } : null,
  };
}

function requireSettings(ctx: Ctx) {
  const settings = oidcSettingsOf(ctx.env.config);
  if (!settings) throw new AppError('NOT_FOUND', 'Single sign-on is not configured on this service (OIDC_ISSUER, OIDC_CLIENT_ID)', { reason: 'sso_disabled' });
  return settings;
}

/** Begins a sign-in at the provider: the address to send the browser to, and the attempt for it to keep until the callback. */
export async function beginOidcSignIn(ctx: Ctx, returnTo: string | undefined): Promise<{ location: string; attempt: SignInAttempt }> {
  const configuration = await providerConfiguration(requireSettings(ctx)).catch((err: unknown) => {
    ctx.log.warn({ err: (err as { cause?: unknown }).cause ?? err }, 'single sign-on: provider discovery failed');
    throw err;
  });
  const checks = newSignInChecks();
  const url = await authorizationUrl(configuration, redirectUriOf(ctx.env.config), checks);
  return { location: url.href, attempt: { ...checks, returnTo: safeReturnTo(returnTo), createdAt: ctx.now().getTime() } };
}

export interface CallbackInput {
  /** The attempt from the browser's cookie, or null when it is missing, forged or expired. */
  attempt: SignInAttempt | null;
  state?: string;
  error?: string;
  errorDescription?: string;
  /** The callback's query string as received (code, state, iss…), for openid-client to check. */
  rawQuery: string;
}

/**
 * Finishes a sign-in: checks the provider's answer against the attempt, finds or makes the user, starts a session.
 * Refusals (with a reason the web app explains) are recorded as `auth.signin_failed`. Credentials a claim took away
 * (`userFor`) are dropped from `cache` at once.
 */
export async function finishOidcSignIn(ctx: Ctx, cache: CredentialCache, input: CallbackInput): Promise<{ token: string; expiresAt: Date; returnTo: string }> {
  let claims: ProviderClaims | null = null;
  try {
    claims = await verifiedClaims(ctx, input);
    const { userId, claimed } = await userFor(ctx, claims);
    forgetClaimed(cache, claimed);
    const session = await startSession(ctx, userId, 'oidc');
    return { ...session, returnTo: input.attempt?.returnTo ?? '/' };
  } catch (err) {
    if (err instanceof SignInRefused) await recordRefusal(ctx, err, claims);
    throw err;
  }
}

async function verifiedClaims(ctx: Ctx, input: CallbackInput): Promise<ProviderClaims> {
  const settings = oidcSettingsOf(ctx.env.config);
  if (!settings) throw new SignInRefused('sso_disabled', 'Single sign-on is not configured on this service');
  if (input.error)
    throw new SignInRefused(
      'provider_error',
      `The provider refused the sign-in: ${input.error}${input.errorDescription ? ` (${input.errorDescription})` : ''}`,
    );
  const { attempt } = input;
  if (!attempt) throw new SignInRefused('attempt_expired', 'This sign-in attempt expired or began in another browser: sign in again');
  if (input.state !== attempt.state) throw new SignInRefused('state_mismatch', 'The sign-in answer does not belong to this browser (state mismatch)');
  let configuration: Awaited<ReturnType<typeof providerConfiguration>>;
  try {
    configuration = await providerConfiguration(settings);
  } catch (err) {
    ctx.log.warn({ err: (err as { cause?: unknown }).cause ?? err }, 'single sign-on: provider discovery failed');
    throw new SignInRefused('provider_unavailable', 'The sign-in provider could not be reached; try again shortly');
  }
  const callbackUrl = new URL(redirectUriOf(ctx.env.config));
  callbackUrl.search = input.rawQuery;
  return redeemCallback(configuration, callbackUrl, attempt);
}

/**
 * The user the provider's person signs in as:
 * - a known identity (issuer, subject) → its user, whatever the email says now;
 * - else an account with the same email → linked, only when the provider vouches for the email (`email_verified: true`);
 * - else a new account without a password, when the email's domain is allowed (OIDC_ALLOWED_DOMAINS, empty: any).
 * An account whose email kb has not verified is claimed on the way in (`claimUnverifiedAccount`): at its link, or, for
 * an identity linked before kb verified emails, at its next sign-in while it still has a password. All in one transaction.
 * Two first sign-ins racing each other: the loser finds what the winner made on its second pass.
 */
async function userFor(ctx: Ctx, claims: ProviderClaims): Promise<{ userId: string; claimed: ClaimedCredentials | null }> {
  for (let pass = 1; ; pass++) {
    try {
      return await ctx.db.transaction().execute(async (trx) => {
        const now = ctx.now();
        const provider = { issuer: claims.issuer, linked: false };
        const known = await identitiesRepo.find(trx, claims.issuer, claims.subject);
        if (known) {
          await identitiesRepo.touch(trx, known.id, claims.email, now);
          const account = await credentialsRepo.accountOf(trx, known.userId);
          if (!account || account.emailVerifiedAt !== null) return { userId: known.userId, claimed: null };
          const claimed = account.passwordHash === null ? null : await claimUnverifiedAccount(trx, ctx, account, provider);
          if (vouchesFor(claims, account.email)) await usersRepo.markEmailVerified(trx, account.id, now);
          return { userId: known.userId, claimed };
        }
        const email = claims.email;
        if (!email) throw new SignInRefused('email_missing', 'The provider gave no email address for this account');
        const existing = await usersRepo.findByEmail(trx, email);
        if (existing && claims.emailVerified !== true)
          throw new SignInRefused('email_not_verified', 'An account with this email exists, and the provider has not verified the email: it cannot be linked');
        let claimed: ClaimedCredentials | null = null;
        if (existing && existing.emailVerifiedAt === null) {
          claimed = await claimUnverifiedAccount(trx, ctx, existing, { ...provider, linked: true });
          await usersRepo.markEmailVerified(trx, existing.id, now);
        }
        const userId = existing ? existing.id : await newAccount(trx, ctx, claims, email);
        await identitiesRepo.insert(trx, { id: newId(), userId, issuer: claims.issuer, subject: claims.subject, email, lastLoginAt: now });
        return { userId, claimed };
      });
    } catch (err) {
      const raced = isUniqueViolation(err) || (err instanceof AppError && err.code === 'ALREADY_EXISTS');
      if (!raced || pass >= 2) throw err;
    }
  }
}

/** A first sign-in's own account (no password); its email counts as verified when the provider says so. */
async function newAccount(trx: Db, ctx: Ctx, claims: ProviderClaims, email: string): Promise<string> {
  refuseNewAccount(ctx, email, claims.emailVerified);
  const emailVerifiedAt = claims.emailVerified === true ? ctx.now() : null;
  return (await createUser(trx, { email, name: nameOf(claims, email), password: null, emailVerifiedAt })).id;
}

/** Whether the provider vouches, now, for `email` being its person's. */
function vouchesFor(claims: ProviderClaims, email: string): boolean {
  return claims.emailVerified === true && claims.email?.toLowerCase() === email.toLowerCase();
}

/** Only people of the allowed domains get a new account; with a domain list, an email the provider says is unverified proves nothing. */
function refuseNewAccount(ctx: Ctx, email: string, emailVerified: boolean | null) {
  const allowed = allowedDomainsOf(ctx.env.config.OIDC_ALLOWED_DOMAINS);
  if (allowed.length === 0) return;
  const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  if (!allowed.includes(domain)) throw new SignInRefused('domain_not_allowed', `Accounts for @${domain} cannot be created through single sign-on here`);
  if (emailVerified === false) throw new SignInRefused('email_not_verified', 'The provider has not verified this email address');
}

export function allowedDomainsOf(setting: string): string[] {
  return setting
    .split(',')
    .map((d) => d.trim().toLowerCase().replace(/^@/, ''))
    .filter(Boolean);
}

function nameOf(claims: ProviderClaims, email: string): string {
  return (claims.name ?? email.slice(0, email.indexOf('@'))).slice(0, 200) || email;
}

async function recordRefusal(ctx: Ctx, refusal: SignInRefused, claims: ProviderClaims | null) {
  await recordAudit(ctx.db, ctx, {
    workspaceId: null,
    action: 'auth.signin_failed',
    actorId: null,
    details: { via: 'oidc', reason: refusal.reason, ...(claims?.email ? { email: claims.email } : {}) },
  });
}
