import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';
import { EMBED_FRAME_HOSTS } from '../editor/embeds.js';

/**
 * Security headers for a JSON API (OWASP's REST set), from helmet: `Content-Security-Policy: default-src 'none';
 * frame-ancestors 'none'`, `X-Frame-Options: DENY`, `X-Content-Type-Options: nosniff`, HSTS, `Referrer-Policy:
 * no-referrer`, `Cross-Origin-Resource-Policy: same-site`. helmet's defaults for HTML sites (a CSP with script and
 * style sources, DNS-prefetch, download and cross-domain-policy switches, COOP, Origin-Agent-Cluster) mean nothing to
 * a JSON answer and tripled the bytes of every response's headers, so they are off. The middleware is built once
 * (@fastify/helmet rebuilt it on every request). Routes that need their own CSP (the docs page, downloads, the web
 * app) set it and it wins.
 */
export function registerSecurityHeaders(app: FastifyInstance) {
  const apply = helmet({
    contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
    crossOriginResourcePolicy: { policy: 'same-site' },
    frameguard: { action: 'deny' },
    crossOriginOpenerPolicy: false,
    originAgentCluster: false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
  });
  app.addHook('onRequest', (request, reply, done) => {
    apply(request.raw, reply.raw, (err?: unknown) => done(err as Error | undefined));
  });
}

/**
 * The CSP of the web app's HTML and assets (src/http/web-app.ts): scripts and styles from our origin only, no inline
 * script and no eval (the build emits none); inline styles are allowed because the UI library sets style attributes.
 * Images may come from anywhere over http(s) (avatars, pictures in pages); the co-editing socket needs ws/wss. Frames
 * only from the hosts of the embed providers' players (the allow-list's own `EMBED_FRAME_HOSTS`, so the CSP and what
 * validation accepts are one list), over https.
 */
export const APP_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https: http:",
  "font-src 'self' data:",
  "connect-src 'self' ws: wss:",
  "worker-src 'self' blob:",
  `frame-src ${EMBED_FRAME_HOSTS.map((host) => `https://${host}`).join(' ')}`,
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "object-src 'none'",
].join('; ');
