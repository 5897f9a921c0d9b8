/**
 * Which URLs page content may carry. An allow-list, because a deny-list of schemes loses to the ways browsers read a
 * URL: they drop tabs and newlines anywhere in it and C0 controls and spaces around it, so `java\tscript:` runs as
 * `javascript:`. We strip the same characters before reading the scheme, then accept only the schemes listed.
 */

/** What a browser ignores when it reads a URL's scheme: C0 controls, space and DEL. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const IGNORED_BY_BROWSERS = /[\u0000-\u0020\u007f]/g;
/** A scheme as RFC 3986 spells it; a URL without one (`/a`, `b/c`, `#x`, `?q`, `//host/p`) is relative. */
const SCHEME = /^([a-z][a-z0-9+.-]*):/i;
/** Inline images the editor pastes as Base64 (raster formats only: SVG can carry script). */
const DATA_IMAGE = /^data:image\/(png|jpe?g|gif|webp|avif);/i;

const LINK_SCHEMES = new Set(['http', 'https', 'mailto']);
const IMAGE_SCHEMES = new Set(['http', 'https']);

/** The scheme a browser would see (lower case), or null for a relative URL. */
export function schemeOf(url: string): string | null {
  return SCHEME.exec(url.replace(IGNORED_BY_BROWSERS, ''))?.[1].toLowerCase() ?? null;
}

/** A link target: http, https, mailto or relative (an attachment's `/api/v1/attachments/…` URL is relative). */
export function isAllowedLinkUrl(url: string): boolean {
  const scheme = schemeOf(url);
  return scheme === null || LINK_SCHEMES.has(scheme);
}

/** An image source: http, https, relative (attachments) or a raster `data:image/…;` URL. */
export function isAllowedImageUrl(url: string): boolean {
  const scheme = schemeOf(url);
  if (scheme === null || IMAGE_SCHEMES.has(scheme)) return true;
  return scheme === 'data' && DATA_IMAGE.test(url.replace(IGNORED_BY_BROWSERS, ''));
}
