import type { FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import { ctxOf } from '../../http/request-context.js';
import type { AreaRoutes } from '../../http/routes.js';
import { cookiesSecure, setSessionCookie } from '../../http/session-cookie.js';
import { ErrorBody } from '../../schema.js';
import { SignInRefused } from './oidc.client.js';
import { ATTEMPT_COOKIE, ATTEMPT_TTL_S, openAttempt, sealAttempt } from './oidc.cookie.js';
import { OidcCallbackQuery, OidcStartQuery, SignInProviders } from './oidc.schema.js';
import { beginOidcSignIn, finishOidcSignIn, signInProviders } from './oidc.service.js';

/** The web app's sign-in screen: where a refused single sign-on lands, with `sso_error=<reason>`. */
const SIGN_IN_PATH = '/login';
/** The attempt cookie travels only to the callback (whichever prefix began it). */
const ATTEMPT_PATH = '/api/v1/auth/oidc';

/** HttpOnly, and SameSite=Lax: the provider's redirect back is a top-level GET navigation, which Lax cookies accompany; Secure like the session cookie. */
function attemptCookie(request: FastifyRequest, config: Config) {
  return { httpOnly: true, sameSite: 'lax' as const, path: ATTEMPT_PATH, secure: cookiesSecure(request, config) };
}

function refusedLocation(reason: string, returnTo: string | undefined): string {
  const query = new URLSearchParams({ sso_error: reason });
  if (returnTo && returnTo !== '/') query.set('next', returnTo);
  return `${SIGN_IN_PATH}?${query}`;
}

export const oidcRoutes: AreaRoutes = (app, deps) => {
  app.get(
    '/auth/providers',
    {
      config: { public: true },
      schema: {
        tags: ['auth'],
        summary: 'The ways to sign in: password, and single sign-on with an OpenID Connect provider when configured',
        response: { 200: SignInProviders },
      },
    },
    async (req) => ({ data: signInProviders(ctxOf(req, deps)) }),
  );
  app.get(
    '/auth/oidc/start',
    {
      config: { public: true },
      schema: {
        tags: ['auth'],
        summary: 'Begin single sign-on: redirects the browser to the OpenID provider (302)',
        description:
          'Authorization code flow with PKCE (S256), state and nonce; the attempt is kept in a sealed, HttpOnly cookie for ten minutes. 404 when single sign-on is not configured, 503 when the provider cannot be reached (discovery is retried on the next attempt).',
        querystring: OidcStartQuery,
        response: { 404: ErrorBody, 503: ErrorBody },
      },
    },
    async (req, reply) => {
      const ctx = ctxOf(req, deps);
      const { location, attempt } = await beginOidcSignIn(ctx, req.query.returnTo);
      reply.setCookie(ATTEMPT_COOKIE, sealAttempt(deps.env.tokens, attempt), { ...attemptCookie(req, deps.env.config), maxAge: ATTEMPT_TTL_S });
      return reply.redirect(location, 302);
    },
  );
  app.get(
    '/auth/oidc/callback',
    {
      config: { public: true },
      schema: {
        tags: ['auth'],
        summary: 'Where the OpenID provider sends the browser back: signs in and redirects (302) to the attempt’s returnTo',
        description:
          'Sets the kb_session cookie on success. Any refusal redirects to /login?sso_error=<reason>: attempt_expired, state_mismatch, nonce_mismatch, code_rejected, provider_error, provider_unavailable, email_missing, email_not_verified, domain_not_allowed, sso_disabled, sso_failed.',
        querystring: OidcCallbackQuery,
      },
    },
    async (req, reply) => {
      const ctx = ctxOf(req, deps);
      const attempt = openAttempt(deps.env.tokens, req.cookies?.[ATTEMPT_COOKIE], ctx.now());
      // One use only, whatever happens next.
      reply.clearCookie(ATTEMPT_COOKIE, attemptCookie(req, deps.env.config));
      try {
        const signedIn = await finishOidcSignIn(ctx, deps.authenticator, {
          attempt,
          state: req.query.state,
          error: req.query.error,
          errorDescription: req.query.error_description,
          rawQuery: req.url.includes('?') ? req.url.slice(req.url.indexOf('?') + 1) : '',
        });
        const maxAgeS = Math.max(0, Math.floor((signedIn.expiresAt.getTime() - ctx.now().getTime()) / 1000));
        setSessionCookie(req, reply, deps.env.config, signedIn.token, maxAgeS);
        return reply.redirect(signedIn.returnTo, 302);
      } catch (err) {
        if (!(err instanceof SignInRefused)) req.log.error({ err }, 'single sign-on callback failed');
        else req.log.info({ reason: err.reason, message: err.message }, 'single sign-on refused');
        return reply.redirect(refusedLocation(err instanceof SignInRefused ? err.reason : 'sso_failed', attempt?.returnTo), 302);
      }
    },
  );
};
