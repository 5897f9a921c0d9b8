import { Parser } from 'htmlparser2';
import { cleanLinkCardTitle } from '../../editor/link-cards.js';

/** What a card shows of a page, read from its head. */
export interface PageMeta {
  title: string | null;
  description: string | null;
  siteName: string | null;
  iconUrl: string | null;
}

const MAX_DESCRIPTION = 1000;
const MAX_SITE_NAME = 200;

const oneLine = (value: string | undefined, max: number): string | null => {
  if (!value) return null;
  const line = value.replace(/\s+/g, ' ').trim();
  if (!line) return null;
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
};

/** An http(s) address read relative to the page, or null (a `data:`, `javascript:` or unreadable one). */
function absoluteHttp(href: string | undefined, base: string): string | null {
  if (!href) return null;
  try {
    const url = new URL(href.trim(), base);
    return (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password && url.href.length <= 2048 ? url.href : null;
  } catch {
    return null;
  }
}

/** How good an icon link is: `icon` (and `shortcut icon`) first, then Apple's touch icon. */
function iconRank(rel: string): number {
  const words = rel.toLowerCase().split(/\s+/);
  if (words.includes('icon')) return 2;
  if (words.includes('apple-touch-icon') || words.includes('apple-touch-icon-precomposed')) return 1;
  return 0;
}

/**
 * Title, description, site name and icon of an HTML page, from `<title>`, the Open Graph and Twitter meta tags, the
 * `description` meta tag and `<link rel="icon">` (else the site's `/favicon.ico`). Streams through htmlparser2 (entities
 * decoded, no tree built, linear in the page's length); stops reading at `<body>`, where the head has ended.
 */
export function readPageMeta(html: string, pageUrl: string): PageMeta {
  const meta = new Map<string, string>();
  let title = '';
  let inTitle = false;
  let titleDone = false;
  let icon: { href: string; rank: number } | null = null;
  let base = pageUrl;
  let done = false;
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (done) return;
        if (name === 'body') {
          done = true;
          return;
        }
        if (name === 'title' && !titleDone) inTitle = true;
        else if (name === 'base' && attrs.href) base = absoluteHttp(attrs.href, pageUrl) ?? base;
        else if (name === 'meta') {
          const key = (attrs.property ?? attrs.name ?? '').toLowerCase();
          if (key && attrs.content !== undefined && !meta.has(key)) meta.set(key, attrs.content);
        } else if (name === 'link' && attrs.href) {
          const rank = iconRank(attrs.rel ?? '');
          if (rank > (icon?.rank ?? 0)) icon = { href: attrs.href, rank };
        }
      },
      ontext(text) {
        if (inTitle && !done) title += text;
      },
      onclosetag(name) {
        if (name === 'title' && inTitle) {
          inTitle = false;
          titleDone = true;
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.end(html);
  const found = icon as { href: string; rank: number } | null;
  return {
    title: cleanLinkCardTitle(meta.get('og:title') ?? meta.get('twitter:title') ?? title),
    description: oneLine(meta.get('og:description') ?? meta.get('twitter:description') ?? meta.get('description'), MAX_DESCRIPTION),
    siteName: oneLine(meta.get('og:site_name') ?? meta.get('application-name'), MAX_SITE_NAME),
    iconUrl: absoluteHttp(found?.href, base) ?? absoluteHttp('/favicon.ico', pageUrl),
  };
}
