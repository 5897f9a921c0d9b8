import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { publicUrlOf } from '../../../config.js';
import type { DocJson } from '../../../db/tables/pages.js';
import { AppError } from '../../../errors.js';
import { ctxOf, type HttpDeps } from '../../../http/request-context.js';
import { readerContentOffThread } from '../../../workers/offload.js';
import { readShareForReader } from '../shares.public.service.js';
import { READER_CSP, READER_ERROR_CSP } from './reader.assets.js';
import { readerGonePage, readerPage } from './reader.page.js';

/**
 * The public reader: `/s/<token>` (the shared page) and `/s/<token>/<pageId>` (a page under it), answered by the
 * server as a finished HTML page, not by the signed-in web app. The JSON routes (`/api/v1/public/shares/…`) stay for
 * scripts; this reads through the same service, so the same rules hold (the link checked on every request, trashed
 * and restricted pages out, links made public).
 *
 * Caching: `private, no-cache` with an ETag. A browser keeps the page but asks again on every visit (a 304 when
 * nothing changed), so revoking the link still ends it at once; `private` keeps it out of shared caches.
 */

const TOKEN = /^[A-Za-z0-9_-]{1,100}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Compressed on libuv's thread pool (not the request thread) in the best encoding the browser takes. */
async function send(request: FastifyRequest, reply: FastifyReply, status: number, html: string) {
  reply.status(status).header('content-type', 'text/html; charset=utf-8').header('vary', 'accept-encoding');
  const accepts = String(request.headers['accept-encoding'] ?? '');
  const body = Buffer.from(html);
  if (body.length < 1024) return reply.send(body);
  if (/\bbr\b/.test(accepts)) return reply.header('content-encoding', 'br').send(await brotli(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }));
  if (/\bgzip\b/.test(accepts)) return reply.header('content-encoding', 'gzip').send(await gzipAsync(body));
  return reply.send(body);
}

function gone(request: FastifyRequest, reply: FastifyReply) {
  reply.header('cache-control', 'private, no-store').header('x-robots-tag', 'noindex').header('content-security-policy', READER_ERROR_CSP);
  return send(request, reply, 404, readerGonePage());
}

export function registerShareReader(app: FastifyInstance, deps: HttpDeps) {
  const origin = publicUrlOf(deps.env.config);
  const read = async (request: FastifyRequest<{ Params: { token: string; pageId?: string } }>, reply: FastifyReply) => {
    const { token, pageId } = request.params;
    // A token is base64url and a page id a UUID: anything else names nothing.
    if (!TOKEN.test(token) || (pageId !== undefined && !UUID.test(pageId))) return gone(request, reply);
    let data: Awaited<ReturnType<typeof readShareForReader>>;
    try {
      data = await readShareForReader(ctxOf(request, deps), token, pageId);
    } catch (err) {
      if (err instanceof AppError && err.status === 404) return gone(request, reply);
      throw err;
    }
    const content = await readerContentOffThread(deps.env.config, data.page.content as DocJson);
    const base = `/s/${token}`;
    const path = pageId && pageId !== data.share.pageId ? `${base}/${pageId}` : base;
    const html = readerPage({
      url: `${origin}${path}`,
      base,
      origin,
      page: data.page,
      content,
      tree: data.tree,
      rootId: data.share.pageId,
      indexable: data.share.allowIndexing,
    });
    const etag = `"${createHash('sha256').update(html).digest('base64url').slice(0, 27)}"`;
    reply.header('cache-control', 'private, no-cache').header('etag', etag).header('content-security-policy', READER_CSP);
    if (!data.share.allowIndexing) reply.header('x-robots-tag', 'noindex');
    if (request.headers['if-none-match'] === etag) return reply.status(304).send();
    return send(request, reply, 200, html);
  };
  const gate = { config: { public: true }, schema: { hide: true } };
  app.get('/s/:token', gate, read);
  app.get('/s/:token/:pageId', gate, read);
  // Deeper addresses under /s/ are no reader's.
  app.get('/s/:token/:pageId/*', gate, (request, reply) => gone(request, reply));
}
