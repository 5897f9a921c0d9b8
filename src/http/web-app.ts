import { stat } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { APP_CONTENT_SECURITY_POLICY } from './security-headers.js';
import { sessionCookieFrom } from './session-cookie.js';

/** Paths the service answers itself: an unknown one there is a JSON 404, never the app's HTML. */
const SERVICE_PATH = /^\/(api|mcp|mcp-standard|\.well-known)(\/|$)/;
/** Vite names files under assets/ by content hash, so a name never changes meaning and may be cached for good. */
const ASSETS = 'assets/';
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** A missing file of these kinds is a broken reference (404), not a deep link into the app. */
const FILE_NAME = /\.(js|mjs|css|map|json|txt|xml|webmanifest|ico|png|jpe?g|gif|svg|webp|avif|woff2?|ttf|otf|wasm)$/i;
const SIGNED_OUT_SHELL = 'signed-out.html';
const NOT_BUILT = 'The web app is not built: run npm run build\n';

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

/** The path of a file to serve under `root`, or null for a name that escapes it or is hidden (a dotfile). */
function fileUnder(root: string, relative: string): string | null {
  if (!relative || relative.split('/').some((segment) => segment.startsWith('.'))) return null;
  const full = path.resolve(root, relative);
  return full.startsWith(root + path.sep) ? full : null;
}

/**
 * Serves the built web app (`WEB_DIST_DIR`) at `/`: its files as they are, and `index.html` for every other GET
 * outside the service's own paths, so a deep link (`/w/acme/s/eng/p/…`) works on reload; the app's router takes it
 * from there (the public reader of share links, `/s/…`, is the server's own: areas/shares/reader). Only GET and HEAD: any other method on an unknown path stays a JSON 404. When the app is not built, the
 * service still starts and the app's paths answer 503.
 */
export async function registerWebApp(app: FastifyInstance, distDir: string) {
  const root = path.resolve(distDir);
  if (!(await isFile(path.join(root, 'index.html'))))
    app.log.warn({ dir: root }, 'The web app is not built (no index.html): run npm run build; until then / answers 503');

  await app.register(async (scope) => {
    // serve: false: the routes below decide what is a file, what is a deep link and what is a 404. preCompressed: the
    // build writes .br and .gz beside each text file; sendFile sends the one the request's Accept-Encoding prefers
    // (Content-Encoding, the original's Content-Type, Vary: accept-encoding), else the file itself.
    await scope.register(fastifyStatic, { root, serve: false, cacheControl: false, suppressWarning: true, preCompressed: true });

    const sendAppFile = (reply: FastifyReply, relative: string, cacheControl: string) =>
      reply.header('cache-control', cacheControl).header('content-security-policy', APP_CONTENT_SECURITY_POLICY).sendFile(relative, root);

    const serveApp = async (request: FastifyRequest, reply: FastifyReply) => {
      if (SERVICE_PATH.test(request.url.split('?')[0])) return reply.callNotFound();
      const relative = (request.params as { '*'?: string })['*'] ?? '';
      const file = fileUnder(root, relative);
      if (file && (await isFile(file))) return sendAppFile(reply, relative, relative.startsWith(ASSETS) ? IMMUTABLE : 'no-cache');
      if (relative.startsWith(ASSETS) || FILE_NAME.test(relative)) return reply.callNotFound();
      if (!(await isFile(path.join(root, 'index.html'))))
        return reply.status(503).header('content-type', 'text/plain; charset=utf-8').header('cache-control', 'no-store').send(NOT_BUILT);
      // no-cache: the page names the current hashed assets, so it is revalidated (ETag) on every load. A browser with
      // no session cookie gets the signed-out shell (no reads that would answer 401; the build makes it beside index.html).
      reply.header('vary', 'cookie');
      if (!sessionCookieFrom(request.cookies) && (await isFile(path.join(root, SIGNED_OUT_SHELL)))) return sendAppFile(reply, SIGNED_OUT_SHELL, 'no-cache');
      return sendAppFile(reply, 'index.html', 'no-cache');
    };
    // Public: the app's shell carries no data; the API it calls checks credentials as usual.
    const routeOptions = { config: { public: true }, schema: { hide: true } };
    scope.get('/', routeOptions, serveApp);
    scope.get('/*', routeOptions, serveApp);
  });
}
