import type { z } from 'zod';
import type { Ctx } from '../../context.js';
import { checkLinkCardUrl } from '../../editor/link-cards.js';
import { AppError, validation } from '../../errors.js';
import { addressRuleOf, BlockedAddressError, guardedGet } from '../research/research.outbound.js';
import { requireWorkspaceRole } from '../workspaces/workspaces.policy.js';
import { FAILED_PREVIEW_TTL_MS, PREVIEW_TTL_MS, previewCacheOf } from './link-previews.cache.js';
import { readPageMeta } from './link-previews.meta.js';
import type { LinkPreview, LinkPreviewQuery } from './link-previews.schema.js';

/** Redirects followed at most (each hop checked against the address rules again). */
const MAX_REDIRECTS = 5;
const HTML_TYPES = /^\s*(text\/html|application\/xhtml\+xml)\b/i;

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 200);

/**
 * What a link card shows of a link: the page's title, description, site name and icon, fetched by the server through
 * research's outbound fetcher (the same address rules: a loopback, private or link-local address, or a redirect to
 * one, is refused with 422; a timeout for the whole exchange; a size cap; only HTML read). A page that cannot be read
 * (unreachable, an error status, not HTML) is no error: its card shows the host. Any member of the workspace may ask.
 */
export async function previewLink(ctx: Ctx, input: z.infer<typeof LinkPreviewQuery>): Promise<LinkPreview> {
  await requireWorkspaceRole(ctx, input.workspaceId, 'viewer');
  const check = checkLinkCardUrl(input.url);
  if (!check.ok) throw validation('url', 'invalid_url', `${check.reason[0].toUpperCase()}${check.reason.slice(1)}`);
  const cache = previewCacheOf(ctx.env);
  const now = ctx.now().getTime();
  const cached = cache.get(check.url, now);
  if (cached) return cached;
  const hostOnly: LinkPreview = { url: check.url, host: check.host, title: null, description: null, siteName: null, iconUrl: null, reachable: false };
  const { config } = ctx.env;
  let page: Awaited<ReturnType<typeof guardedGet>>;
  try {
    page = await guardedGet(check.url, {
      addresses: addressRuleOf(config),
      timeoutMs: config.LINK_PREVIEW_TIMEOUT_MS,
      // The per-hop timeout above, and this one for the whole exchange, redirects included.
      signal: AbortSignal.timeout(config.LINK_PREVIEW_TIMEOUT_MS),
      maxBytes: config.LINK_PREVIEW_MAX_BYTES,
      maxRedirects: MAX_REDIRECTS,
      headers: { 'user-agent': 'kb-link-preview/1.0', accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1' },
    });
  } catch (err) {
    if (err instanceof BlockedAddressError)
      throw new AppError('VALIDATION_ERROR', `No preview for this link: ${err.host} is a loopback or private address, which the server does not fetch`, {
        field: 'url',
        reason: 'private_address',
      });
    ctx.log.debug({ url: check.host, err: errorText(err) }, 'link preview: page not read');
    cache.set(check.url, hostOnly, FAILED_PREVIEW_TTL_MS, now);
    return hostOnly;
  }
  if (page.status < 200 || page.status >= 300 || !HTML_TYPES.test(page.contentType)) {
    cache.set(check.url, hostOnly, FAILED_PREVIEW_TTL_MS, now);
    return hostOnly;
  }
  const meta = readPageMeta(page.body, page.url);
  const preview: LinkPreview = { ...hostOnly, ...meta, reachable: true };
  cache.set(check.url, preview, PREVIEW_TTL_MS, now);
  return preview;
}
