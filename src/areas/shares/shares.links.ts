import type { DocJson } from '../../db/tables/pages.js';
import { schemeOf } from '../../editor/urls.js';
import { API_ATTACHMENT, API_PAGE, APP_PAGE, PAGE_MENTION_PREFIX } from '../exports/exports.links.js';

/**
 * A shared page's content as the public may see it: nothing outside the share stays reachable through it.
 * - a page mention, or a link to a page's address (web app or API): inside the share it becomes a link to the page in
 *   the public reader (`/s/<token>/<pageId>`); outside, plain text with its label;
 * - any other mention (a person) becomes plain text `@label` (no user id leaves);
 * - an attachment's address (image, link, file, video or audio): inside the share it becomes the public attachment URL;
 *   outside, a link becomes plain text, an image (block or inline) leaves only its alt text, and a file, video or audio
 *   its name or title;
 * - any other relative link (an address of the signed-in app) becomes plain text; `#fragment` links and links to
 *   other sites stay as they are.
 */

type Json = Record<string, unknown>;
type Mark = { type: string; attrs?: Json };

/** What the share holds, and where its things live publicly. */
export interface ShareScope {
  hasPage(id: string): boolean;
  hasAttachment(id: string): boolean;
  pageUrl(id: string): string;
  attachmentUrl(id: string): string;
}

function decode(id: string): string {
  try {
    return decodeURIComponent(id);
  } catch {
    return id;
  }
}

/** Ids of the attachments a document points at (image sources and link targets), to ask which lie inside the share. */
export function attachmentIdsIn(doc: DocJson): string[] {
  const ids = new Set<string>();
  const see = (url: unknown) => {
    const m = typeof url === 'string' ? API_ATTACHMENT.exec(url.trim()) : null;
    if (m) ids.add(decode(m[1]));
  };
  walk(doc as Json, (node) => {
    const attrs = node.attrs as Json | undefined;
    if (node.type === 'image' || node.type === 'inlineImage' || node.type === 'video' || node.type === 'audio') see(attrs?.src);
    if (node.type === 'fileAttachment') see(attrs?.url);
    for (const mark of (node.marks as Mark[] | undefined) ?? []) if (mark.type === 'link') see(mark.attrs?.href);
  });
  return [...ids];
}

function walk(root: Json, visit: (node: Json) => void) {
  const stack: Json[] = [root];
  while (stack.length) {
    const node = stack.pop() as Json;
    visit(node);
    if (Array.isArray(node.content)) stack.push(...(node.content as Json[]));
  }
}

/** The public address for `url`, `null` when it points at something outside the share, or `url` itself when it is harmless. */
function publicHref(url: string, scope: ShareScope): string | null {
  const trimmed = url.trim();
  const page = APP_PAGE.exec(trimmed) ?? API_PAGE.exec(trimmed);
  if (page) {
    const id = decode(page[1]);
    return scope.hasPage(id) ? `${scope.pageUrl(id)}${page[2] ?? ''}` : null;
  }
  const attachment = API_ATTACHMENT.exec(trimmed);
  if (attachment) {
    const id = decode(attachment[1]);
    return scope.hasAttachment(id) ? scope.attachmentUrl(id) : null;
  }
  if (trimmed.startsWith('#')) return url;
  return schemeOf(trimmed) === null ? null : url;
}

function publicMarks(marks: Mark[], scope: ShareScope): Mark[] {
  const out: Mark[] = [];
  for (const mark of marks) {
    if (mark.type !== 'link') {
      out.push(mark);
      continue;
    }
    const given = typeof mark.attrs?.href === 'string' ? mark.attrs.href : null;
    const href = given === null ? null : publicHref(given, scope);
    if (href === null) continue;
    // A link made to point inside the share opens in the reader itself, not in a new tab.
    out.push({ ...mark, attrs: { ...mark.attrs, href, ...(href !== given ? { target: null } : {}) } });
  }
  return out;
}

function mentionAsText(node: Json, scope: ShareScope): Json {
  const attrs = (node.attrs ?? {}) as Json;
  const id = typeof attrs.id === 'string' ? attrs.id : '';
  const text = `@${(typeof attrs.label === 'string' && attrs.label) || 'mention'}`;
  const marks = publicMarks(
    ((node.marks as Mark[] | undefined) ?? []).filter((m) => m.type !== 'link'),
    scope,
  );
  const pageId = id.startsWith(PAGE_MENTION_PREFIX) ? id.slice(PAGE_MENTION_PREFIX.length) : null;
  if (pageId && scope.hasPage(pageId)) marks.push({ type: 'link', attrs: { href: scope.pageUrl(pageId) } });
  return marks.length ? { type: 'text', text, marks } : { type: 'text', text };
}

/** One node made public, or null to leave it out (children by the caller's loop, never by recursion: content may nest deep). */
function publicNode(node: Json, scope: ShareScope): Json | null {
  if (node.type === 'mention') return mentionAsText(node, scope);
  const out: Json = { ...node };
  const attrs = node.attrs as Json | undefined;
  if ((node.type === 'image' || node.type === 'inlineImage') && attrs) {
    const src = typeof attrs.src === 'string' ? publicHref(attrs.src, scope) : null;
    // An image from outside the share leaves its alt text: a paragraph where the image block was (valid wherever it
    // was), text where an inline image was (with its marks, made public).
    const alt = typeof attrs.alt === 'string' && attrs.alt ? attrs.alt : null;
    if (src === null && node.type === 'image') return alt ? { type: 'paragraph', content: [{ type: 'text', text: alt }] } : { type: 'paragraph' };
    if (src === null) return alt ? publicNode({ type: 'text', text: alt, ...(node.marks ? { marks: node.marks } : {}) }, scope) : null;
    out.attrs = { ...attrs, src };
  }
  if ((node.type === 'fileAttachment' || node.type === 'video' || node.type === 'audio') && attrs) {
    const key = node.type === 'fileAttachment' ? 'url' : 'src';
    const address = typeof attrs[key] === 'string' ? publicHref(attrs[key] as string, scope) : null;
    // A file from outside the share leaves its name (a video or audio its title) as a line of text.
    const name = (node.type === 'fileAttachment' ? attrs.name : attrs.title) as unknown;
    if (address === null) return typeof name === 'string' && name ? { type: 'paragraph', content: [{ type: 'text', text: name }] } : { type: 'paragraph' };
    out.attrs = { ...attrs, [key]: address };
  }
  if (Array.isArray(node.marks)) {
    const marks = publicMarks(node.marks as Mark[], scope);
    if (marks.length) out.marks = marks;
    else delete out.marks;
  }
  return out;
}

/** A copy of `doc` with every link made public or removed (see above). */
export function publicContent(doc: DocJson, scope: ShareScope): DocJson {
  const root = publicNode(doc as Json, scope) as Json;
  const stack: Json[] = [root];
  while (stack.length) {
    const node = stack.pop() as Json;
    if (!Array.isArray(node.content)) continue;
    node.content = (node.content as Json[]).flatMap((child) => {
      const copy = publicNode(child, scope);
      if (copy) stack.push(copy);
      return copy ? [copy] : [];
    });
  }
  return root as DocJson;
}
