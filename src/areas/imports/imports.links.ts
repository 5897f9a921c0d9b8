import type { DocJson } from '../../editor/index.js';
import { schemeOf } from '../../editor/index.js';
import { PAGE_MENTION_PREFIX } from '../exports/exports.links.js';
import { fragmentOf } from './sources/paths.js';

/**
 * References inside imported pages, made to point at what the import created:
 * - a link to another imported page becomes a link to its address in the web app (`/w/<host>/s/<space>/p/<slug>-<id>`,
 *   which kb's export turns back into a relative path); a link whose whole text is `@Label` becomes a page mention,
 *   which is how kb's export writes mentions;
 * - an image or a link to a file of the upload makes that file an attachment (of the first page naming it) and points
 *   at its download address;
 * - a relative reference that names nothing in the upload is left as written, with a warning.
 */

type Json = Record<string, unknown>;
type Mark = { type: string; attrs?: Json };

export type Target = { page: { id: string; url: string } } | { attachmentUrl: string } | null;

export interface LinkResolver {
  /** What `ref` (as written) points at, or null when it points outside the import. */
  target(ref: string): Target;
  warn(message: string): void;
}

function isRelative(ref: string) {
  const trimmed = ref.trim();
  return trimmed !== '' && !trimmed.startsWith('#') && schemeOf(trimmed) === null && !trimmed.startsWith('/');
}

function linkedHref(href: string, resolver: LinkResolver): { href: string; pageId?: string } {
  const target = resolver.target(href);
  if (!target) {
    if (isRelative(href)) resolver.warn(`the link to ${href} points at nothing in the upload; kept as written`);
    return { href };
  }
  if ('page' in target) return { href: `${target.page.url}${fragmentOf(href)}`, pageId: target.page.id };
  return { href: target.attachmentUrl };
}

/** One inline node with its link resolved; a mention when the link names a page and its text is `@Label`. */
function resolveInline(node: Json, resolver: LinkResolver): Json {
  const marks = node.marks as Mark[] | undefined;
  const link = marks?.find((m) => m.type === 'link');
  if (!link?.attrs || typeof link.attrs.href !== 'string') return node;
  const { href, pageId } = linkedHref(link.attrs.href, resolver);
  const text = typeof node.text === 'string' ? node.text : '';
  if (pageId && node.type === 'text' && /^@\S/.test(text) && !fragmentOf(link.attrs.href)) {
    const rest = (marks ?? []).filter((m) => m.type !== 'link');
    return { type: 'mention', attrs: { id: `${PAGE_MENTION_PREFIX}${pageId}`, label: text.slice(1) }, ...(rest.length ? { marks: rest } : {}) };
  }
  return { ...node, marks: (marks ?? []).map((m) => (m === link ? { ...m, attrs: { ...m.attrs, href } } : m)) };
}

function resolveImage(node: Json, resolver: LinkResolver): Json {
  const attrs = node.attrs as Json | undefined;
  if (typeof attrs?.src !== 'string') return node;
  const target = resolver.target(attrs.src);
  if (!target) {
    if (isRelative(attrs.src)) resolver.warn(`the image ${attrs.src} is not in the upload; kept as written`);
    return node;
  }
  if ('page' in target) {
    resolver.warn(`the image ${attrs.src} names a page, not a picture; it became a link`);
    const link = { type: 'text', text: String(attrs.alt || attrs.title || 'page'), marks: [{ type: 'link', attrs: { href: target.page.url } }] };
    // An inline image's link stays in its line (other marks of it give way to the link).
    return node.type === 'inlineImage' ? link : { type: 'paragraph', content: [link] };
  }
  return { ...node, attrs: { ...attrs, src: target.attachmentUrl } };
}

/** An image in a line of text: its source, and its link when it has one (a linked icon). */
function inlineImage(node: Json, resolver: LinkResolver): Json {
  const resolved = resolveImage(node, resolver);
  return resolved.type === 'inlineImage' ? resolveInline(resolved, resolver) : resolved;
}

/** A copy of `doc` with every reference resolved; walked with a stack, since content may nest deep. */
export function resolveReferences(doc: DocJson, resolver: LinkResolver): DocJson {
  const root = { ...(doc as Json) };
  const stack: Json[] = [root];
  while (stack.length) {
    const node = stack.pop() as Json;
    if (!Array.isArray(node.content)) continue;
    node.content = (node.content as Json[]).map((child) => {
      const copy =
        child.type === 'image'
          ? resolveImage(child, resolver)
          : child.type === 'inlineImage'
            ? inlineImage(child, resolver)
            : child.type === 'text'
              ? resolveInline(child, resolver)
              : { ...child };
      stack.push(copy);
      return copy;
    });
  }
  return root as DocJson;
}
