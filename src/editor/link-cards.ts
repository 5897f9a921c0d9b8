import { Node } from '@tiptap/core';
import type { DOMOutputSpec } from '@tiptap/pm/model';
import { schemeOf } from './urls.js';

/**
 * A link card (`linkCard`): a link to any http(s) page shown as a card (favicon, title, description, host), for the
 * links the embed allow-list (embeds.ts) does not frame. The page keeps the link (`url`) and the title last read from
 * it (`title`, optional: filled in by the web editor when the card is made, so search and exports have words to show);
 * description and favicon are fetched when shown (`GET /api/v1/link-preview`), never stored.
 * Markdown `::link[<url>]` on a line of its own (the title is not written: a reader fetches it again); HTML a plain
 * `<a class="link-card" data-link-card href="<url>">title or url</a>`.
 */

/** Longest link a card may hold (as for links, images and embeds). */
export const MAX_LINK_CARD_URL = 2048;
/** Longest title a card keeps. */
export const MAX_LINK_CARD_TITLE = 300;

export type LinkCardCheck = { ok: true; url: string; host: string } | { ok: false; reason: string };

/** What a browser drops or misreads in a URL, and what a Markdown or HTML reader may read differently. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const UNSAFE_CHARACTERS = /[\u0000-\u0020\u007f-\u009f\\\s]/u;
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/u;

/**
 * Reads a link for a card: http or https, a full address of at most MAX_LINK_CARD_URL characters, no spaces, control
 * characters or backslashes, no user name or password. Any host (whether the server may fetch it is the preview's
 * question, not the document's).
 */
export function checkLinkCardUrl(url: unknown): LinkCardCheck {
  if (typeof url !== 'string' || url === '') return { ok: false, reason: 'a link card needs a link' };
  if (url.length > MAX_LINK_CARD_URL) return { ok: false, reason: `a link card's link must be at most ${MAX_LINK_CARD_URL} characters` };
  if (UNSAFE_CHARACTERS.test(url)) return { ok: false, reason: "a link card's link must be one address without spaces, control characters or backslashes" };
  const scheme = schemeOf(url);
  if (scheme !== 'http' && scheme !== 'https')
    return {
      ok: false,
      reason: scheme ? `a link card's link must be http or https, not ${scheme.slice(0, 32)}:` : "a link card's link must be a full http(s) address",
    };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, reason: "a link card's link must be a valid address" };
  }
  if (!parsed.hostname) return { ok: false, reason: "a link card's link must name a host" };
  if (parsed.username || parsed.password) return { ok: false, reason: "a link card's link must not carry a user name or password" };
  return { ok: true, url, host: parsed.hostname };
}

/** A title as a card keeps it: one line, trimmed, at most MAX_LINK_CARD_TITLE characters, or null. */
export function cleanLinkCardTitle(title: unknown): string | null {
  if (typeof title !== 'string') return null;
  const line = title.replace(/\s+/g, ' ').trim();
  if (!line) return null;
  return line.length > MAX_LINK_CARD_TITLE ? `${line.slice(0, MAX_LINK_CARD_TITLE - 1)}…` : line;
}

const fail = (message: string): never => {
  throw new RangeError(message);
};
const urlAttr = (v: unknown) => {
  const check = checkLinkCardUrl(v);
  if (!check.ok) fail(check.reason);
};
const titleAttr = (v: unknown) => {
  if (v === null) return;
  if (typeof v !== 'string') fail('must be null or a string');
  const s = v as string;
  if (s.length > MAX_LINK_CARD_TITLE) fail(`must be at most ${MAX_LINK_CARD_TITLE} characters`);
  if (CONTROL.test(s)) fail('must be one line without control characters');
};

/** The host a card names, or the link itself when it does not read. */
export function linkCardHost(url: unknown): string {
  const check = checkLinkCardUrl(url);
  return check.ok ? check.host : String(url ?? '');
}

/** A card's HTML: one plain link (what every reader, export and the public share page understands). */
export function linkCardHtml(url: string, title: string | null): DOMOutputSpec {
  return ['a', { href: url, class: 'link-card', 'data-link-card': '', rel: 'noopener noreferrer' }, title || url];
}

/** A card read from HTML (kb's own `<a data-link-card>`), or false when its link is not one a card takes. */
const linkCardFromHtml = (el: HTMLElement) => {
  const check = checkLinkCardUrl(el.getAttribute('href'));
  if (!check.ok) return false;
  const title = cleanLinkCardTitle(el.textContent);
  return { url: check.url, title: title && title !== check.url ? title : null };
};

export const LinkCard = Node.create({
  name: 'linkCard',
  group: 'block',
  atom: true,
  selectable: true,
  draggable: true,
  addAttributes() {
    return {
      url: { default: null, validate: urlAttr, parseHTML: (el: HTMLElement) => el.getAttribute('href'), renderHTML: () => ({}) },
      title: { default: null, validate: titleAttr, parseHTML: () => null, renderHTML: () => ({}) },
    };
  },
  parseHTML() {
    // Above the link mark's rule (marks are tried first at equal priority): kb's card is a block, not a linked text.
    return [{ tag: 'a[data-link-card]', priority: 60, getAttrs: linkCardFromHtml }];
  },
  renderHTML({ node }) {
    return linkCardHtml(String(node.attrs.url ?? ''), node.attrs.title ?? null);
  },
});
