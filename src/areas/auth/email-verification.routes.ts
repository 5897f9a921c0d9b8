import type { HttpDeps } from '../../http/request-context.js';
import { ctxOf } from '../../http/request-context.js';
import { type Api, BEARER } from '../../http/routes.js';
import { ErrorBody } from '../../schema.js';
import { EmailVerificationConfirmBody, EmailVerificationRequested, EmailVerified } from './auth.schema.js';
import { confirmEmailVerification, requestEmailVerification } from './email-verification.service.js';

/** Verifying the account's email by a mailed link: registered by authRoutes. */
export function emailVerificationRoutes(app: Api, deps: HttpDeps) {
  const tags = ['auth'];
  app.post(
    '/auth/verify-email',
    {
      schema: {
        tags,
        summary: 'Mail yourself a link that verifies your account’s email (SMTP_URL needed)',
        description:
          'The link (PUBLIC_URL/verify-email/<token>, 24 hours, once) is only mailed, never answered. Already verified: 200 with `verified: true` and nothing mailed. 404 `mail_disabled` without SMTP_URL; 429 after 5 mails in an hour; 503 `mail_failed` when the mail server refuses.',
        security: BEARER,
        response: { 200: EmailVerificationRequested, 202: EmailVerificationRequested, 404: ErrorBody, 429: ErrorBody, 503: ErrorBody },
      },
    },
    async (req, reply) => {
      const answer = await requestEmailVerification(ctxOf(req, deps));
      return reply.status(answer.mailed ? 202 : 200).send({ data: answer });
    },
  );
  app.post(
    '/auth/verify-email/confirm',
    {
      config: { public: true },
      preValidation: deps.authThrottle.guard,
      schema: {
        tags,
        summary: 'Use a mailed verification link: your account’s email counts as verified',
        description:
          'No sign-in needed. An unknown, used or expired link gets 400 `INVALID_PARAMETER` (`details.reason: "invalid_or_expired"`). Throttled like login.',
        body: EmailVerificationConfirmBody,
        response: { 200: EmailVerified, 400: ErrorBody, 429: ErrorBody },
      },
    },
    async (req) => ({ data: await confirmEmailVerification(ctxOf(req, deps), req.body) }),
  );
}
